//! The best-board search's tests: symmetries, the brute-force optimum of
//! small boards, real dice, repeatable seeds, targets and stopping.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use super::*;
use boggle_engine::trie::Trie;
use boggle_game::dictionary::Dictionary;
use boggle_game::die::Die;
use boggle_game::rules::MoveRule;
use boggle_game::rules::Preset;

/// Searches classic boards of any letters with the built-in course list.
fn search_classic(options: &Options, progress: &Progress) -> Vec<Ranked> {
    let dictionary = Dictionary::embedded();
    let rules = Rules::preset(Preset::Classic);
    let space = Space::for_rules(&rules, SpaceOf::Letters).expect("letters");
    search(dictionary.trie(), &rules, &space, options, progress).expect("the pool starts")
}

fn faces(letters: &str) -> Vec<Face> {
    letters.bytes().filter_map(Face::letter).collect()
}

fn options(iterations: u64, threads: usize, seed: u64, top: usize) -> Options {
    Options {
        budget: Budget::Iterations(iterations),
        threads,
        seed,
        top,
        schedule: Schedule {
            steps: 300,
            ..Schedule::default()
        },
        target: None,
        objective: Objective::Points,
    }
}

/// Every board of `space` (all placements of its dice, every face up), by brute force.
fn every_board(space: &Space) -> Vec<Vec<Face>> {
    fn fill(
        space: &Space,
        at: usize,
        used: &mut Vec<bool>,
        board: &mut Vec<Face>,
        all: &mut Vec<Vec<Face>>,
    ) {
        if at == space.cells() {
            all.push(board.clone());
            return;
        }
        for die in 0..space.dice.len() {
            if space.real_dice && used[die] {
                continue;
            }
            used[die] = true;
            for &face in &space.dice[die] {
                board.push(face);
                fill(space, at + 1, used, board, all);
                board.pop();
            }
            used[die] = false;
        }
    }
    let mut all = Vec::new();
    fill(
        space,
        0,
        &mut vec![false; space.dice.len()],
        &mut Vec::new(),
        &mut all,
    );
    all
}

/// The best `top` distinct (score, canonical board) pairs of `space`, by brute force.
fn brute_force(trie: &Trie, rules: &Rules, space: &Space, top: usize) -> Vec<(u32, Vec<Face>)> {
    let symmetries = Symmetries::new(rules.rows, rules.cols, rules.moves);
    let mut searcher = Searcher::new(trie, rules);
    let mut scored: Vec<(u32, Vec<Face>)> = every_board(space)
        .into_iter()
        .map(|board| {
            let score = searcher.score(&rebuild(rules.rows, rules.cols, board.clone()));
            (score, symmetries.canonical(&board))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.dedup();
    scored.truncate(top);
    scored
}

fn found(trie: &Trie, rules: &Rules, space: &Space, options: &Options) -> Vec<(u32, Vec<Face>)> {
    search(trie, rules, space, options, &Progress::new())
        .expect("the pool starts")
        .into_iter()
        .map(|r| (r.score, r.board.faces().to_vec()))
        .collect()
}

#[test]
fn all_eight_images_share_one_canonical_form() {
    let board = faces("PERSLATGSINETERS");
    let symmetries = Symmetries::new(4, 4, MoveRule::EightNeighbours);
    let images = symmetries.images(&board);
    assert_eq!(images.len(), 8);
    let mut distinct = images.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 8, "the board has no symmetry of its own");
    let canonical = symmetries.canonical(&board);
    assert!(images.contains(&canonical));
    for image in &images {
        assert_eq!(symmetries.canonical(image), canonical);
    }
    assert_eq!(canonical, board, "P is the smallest corner");
}

#[test]
fn rectangles_and_the_no_up_rule_have_fewer_symmetries() {
    assert_eq!(Symmetries::new(2, 3, MoveRule::EightNeighbours).len(), 4);
    let no_up = Symmetries::new(2, 2, MoveRule::NoUp);
    assert_eq!(no_up.images(&faces("ABCD")), [faces("ABCD"), faces("BADC")]);
    let rectangle = Symmetries::new(2, 3, MoveRule::EightNeighbours);
    assert_eq!(
        rectangle.images(&faces("ABCDEF")),
        [
            faces("ABCDEF"),
            faces("CBAFED"),
            faces("DEFABC"),
            faces("FEDCBA")
        ]
    );
}

#[test]
fn images_hold_the_same_words() {
    let dictionary = Dictionary::embedded();
    let mut rng = random::seeded(3);
    for (rows, cols, preset) in [
        (4, 4, Preset::Classic),
        (3, 5, Preset::Classic),
        (4, 4, Preset::Project4),
    ] {
        let rules = Rules::sized(preset, rows, cols);
        let space = Space::letters(rows, cols, rules.q);
        let symmetries = Symmetries::new(rows, cols, rules.moves);
        let mut searcher = Searcher::new(dictionary.trie(), &rules);
        for _ in 0..20 {
            let board = space.random(&mut rng).faces;
            let score = searcher.score(&rebuild(rows, cols, board.clone()));
            for image in symmetries.images(&board) {
                assert_eq!(searcher.score(&rebuild(rows, cols, image)), score);
            }
        }
    }
}

#[test]
fn finds_the_brute_force_optimum_of_a_small_board() {
    let dictionary = Dictionary::from_words([
        "TEA", "TEAS", "EAT", "EATS", "SEAT", "ATE", "ETA", "SAT", "SET", "EAST", "SATE", "ETAS",
        "TOE", "TOES", "NOTE", "NOTES", "TONE", "ONE", "ONES", "NET", "TEN",
    ]);
    for preset in [Preset::Project4, Preset::Classic] {
        let rules = Rules::sized(preset, 2, 2);
        // Letters no word uses score nothing, so one stands for all of them.
        let space = Space {
            dice: vec![faces("AENOSTXZ")],
            ..Space::letters(2, 2, rules.q)
        };
        let expected = brute_force(dictionary.trie(), &rules, &space, 3);
        // With kicks of the best local maximum (leaving spent ones at once,
        // or not), and with fresh starts only.
        let kicks = Schedule::default().patience;
        for (patience, restart_spent) in [(kicks, false), (2, true), (0, false)] {
            let mut options = options(20_000, 2, 1, 3);
            options.schedule.patience = patience;
            options.schedule.restart_spent = restart_spent;
            let got = found(dictionary.trie(), &rules, &space, &options);
            assert_eq!(got, expected, "{preset} {patience} {restart_spent}");
        }
    }
}

#[test]
fn real_dice_boards_come_from_the_dice() {
    let dictionary = Dictionary::from_words(["TEA", "TEAS", "EAT", "EATS", "SEAT", "SAT", "ATE"]);
    let rules = Rules::sized(Preset::Project4, 2, 2);
    let dice = ["TXXXXX", "EAZZZZ", "AEZZZZ", "SZZZZZ"].map(Die::new);
    let space = Space::dice(2, 2, &dice).expect("four dice fill 2x2");
    let expected = brute_force(dictionary.trie(), &rules, &space, 3);
    let got = found(dictionary.trie(), &rules, &space, &options(5_000, 1, 9, 3));
    assert_eq!(got, expected);
    assert_eq!(got[0].0, 3);
}

#[test]
fn moves_keep_one_die_per_cell_showing_its_own_face() {
    let space = Space::for_rules(&Rules::preset(Preset::Classic), SpaceOf::Dice).expect("16 dice");
    let mut rng = random::seeded(4);
    let mut state = space.random(&mut rng);
    for step in 0..2_000 {
        let mv = if step % 7 == 0 {
            let moves = space.all_moves(&state);
            moves[random::below(&mut rng, moves.len())]
        } else {
            space.random_move(&state, 0.3, &mut rng)
        };
        state.apply(mv);
        let mut dice = state.die_at.clone();
        dice.sort_unstable();
        assert_eq!(dice, (0..16).collect::<Vec<_>>());
        for (cell, face) in state.faces.iter().enumerate() {
            assert!(space.dice[state.die_at[cell]].contains(face));
        }
    }
}

/// A climb ends on a board no single move improves, each move's board
/// scored afresh, and the neighbourhood an escape sorts lists every move in
/// the space's order with its board's own score: on 4x4 and 5x5 (the vector
/// moves walk, where the processor has AVX2), any letters and real dice,
/// with and without the no-up rule.
#[test]
fn a_climb_ends_where_no_single_move_scores_higher() {
    let dictionary = Dictionary::embedded();
    let cases = [
        (Rules::preset(Preset::Classic), SpaceOf::Letters),
        (Rules::preset(Preset::Classic), SpaceOf::Dice),
        (Rules::sized(Preset::Classic, 5, 5), SpaceOf::Letters),
        (Rules::preset(Preset::Project4), SpaceOf::Letters),
    ];
    for (rules, of) in cases {
        let space = Space::for_rules(&rules, of).expect("a space");
        let symmetries = Symmetries::new(space.rows, space.cols, rules.moves);
        let progress = Progress::new();
        let options = options(u64::MAX, 1, 0, 1);
        let search_rules = options.objective.search_rules(&rules);
        let searcher = Searcher::new(dictionary.trie(), search_rules);
        let mut chain = Chain::new(searcher, &space, &symmetries, &progress, 7, &options);
        let mut reference = Searcher::new(dictionary.trie(), search_rules);
        let mut score = |faces: &[Face]| reference.score_faces(space.rows, space.cols, faces);
        let mut rng = random::seeded(11);
        for _ in 0..3 {
            let mut state = space.random(&mut rng);
            let start = score(&state.faces);
            let top = chain.climb(&mut state, start).expect("no budget");
            assert!(top >= start);
            assert_eq!(top, score(&state.faces));
            let moves = chain.neighbourhood(&mut state).expect("no budget");
            let listed: Vec<Move> = moves.iter().map(|&(_, mv)| mv).collect();
            assert_eq!(listed, space.all_moves(&state));
            for (got, mv) in moves {
                let mut next = state.clone();
                next.apply(mv);
                assert_eq!(got, score(&next.faces), "{mv:?}");
                assert!(got <= top, "{mv:?} leads to {got}, above the climb's {top}");
            }
        }
    }
}

#[test]
fn a_fixed_seed_and_thread_count_repeat() {
    let run = |threads| {
        let progress = Progress::new();
        let boards = search_classic(&options(3_001, threads, 5, 4), &progress);
        assert!(progress.scored() <= 3_001);
        boards
    };
    let first = run(2);
    assert_eq!(first.len(), 4);
    assert_eq!(first, run(2));
    assert!(first.windows(2).all(|w| w[0].score >= w[1].score));
    assert_eq!(run(3), run(3));
}

#[test]
fn a_target_stops_the_search_at_the_first_board_reaching_it() {
    let run = |target| {
        let progress = Progress::new();
        let options = Options {
            target,
            ..options(20_000, 1, 5, 1)
        };
        let boards = search_classic(&options, &progress);
        (boards[0].score, progress)
    };
    let (free, unbounded) = run(None);
    assert!(!unbounded.reached_target());
    let target = free - 1;
    let (score, bounded) = run(Some(target));
    assert!(bounded.reached_target());
    assert!(score >= target);
    let best = bounded.best().expect("boards were scored");
    assert_eq!(best.score, score);
    // The board that reached the target is the last one scored.
    assert_eq!(best.after, bounded.scored());
    assert!(bounded.scored() < unbounded.scored());
}

#[test]
fn a_stopped_search_returns_at_once() {
    let progress = Progress::new();
    progress.stop();
    let boards = search_classic(&options(1_000_000, 2, 1, 3), &progress);
    assert!(boards.is_empty());
    assert_eq!(progress.scored(), 0);
}

#[test]
fn the_words_objective_scores_each_word_one() {
    let dictionary = Dictionary::from_words(["TEA", "TEAS", "SEAT", "EATS", "EAST", "SATE"]);
    let rules = Rules::sized(Preset::Classic, 2, 2);
    let board = rebuild(2, 2, faces("EAST"));
    let mut points = Searcher::new(dictionary.trie(), Objective::Points.search_rules(&rules));
    let mut words = Searcher::new(dictionary.trie(), Objective::Words.search_rules(&rules));
    let tally = points.tally(&board);
    assert_eq!(words.score(&board), tally.words);
    assert_eq!(points.score(&board), tally.score);
    assert_eq!(
        Objective::Points.search_rules(&rules),
        SearchRules::from(&rules)
    );
}

#[test]
fn elites_keep_the_best_distinct_maxima_and_one_draws_nothing() {
    let symmetries = Symmetries::new(2, 2, MoveRule::EightNeighbours);
    let state = |letters: &str| State {
        faces: faces(letters),
        die_at: vec![0; 4],
    };
    let mut elites = Elites::new(2);
    let mut rng = random::seeded(1);
    assert!(elites.pick(&mut rng).is_none());
    for (score, letters) in [
        (5, "ABCD"),
        (7, "EFGH"),
        (7, "HGFE"),
        (6, "IJKL"),
        (4, "MNOP"),
    ] {
        let board = state(letters);
        let canonical = symmetries.canonical(&board.faces);
        elites.offer(score, board, canonical);
    }
    // HGFE is EFGH turned, MNOP below the worst kept: both left out.
    assert_eq!(elites.best(), Some(7));
    let mut drawn: Vec<Vec<Face>> = (0..50)
        .filter_map(|_| elites.pick(&mut rng).map(|s| s.faces.clone()))
        .collect();
    drawn.sort();
    drawn.dedup();
    assert_eq!(drawn, [faces("EFGH"), faces("IJKL")]);

    let mut one = Elites::new(1);
    one.offer(3, state("ABCD"), faces("ABCD"));
    let (mut a, mut b) = (random::seeded(9), random::seeded(9));
    assert_eq!(
        one.pick(&mut a).map(|s| s.faces.clone()),
        Some(faces("ABCD"))
    );
    assert_eq!(a.next_u64(), b.next_u64(), "a pool of one draws nothing");
}

#[test]
fn the_cache_gives_back_a_board_s_score_until_another_board_takes_its_slot() {
    let mut cache = Cache::new(4, 4);
    let (abcd, abce) = (faces("ABCD"), faces("ABCE"));
    assert_eq!(cache.get(hash(&abcd), &abcd), None);
    cache.put(hash(&abcd), &abcd, 17);
    assert_eq!(cache.get(hash(&abcd), &abcd), Some(17));
    // The same key with other faces is not that board.
    assert_eq!(cache.get(hash(&abcd), &abce), None);
    // A board whose key falls in the same slot evicts it.
    let rival = hash(&abcd) + 4;
    cache.put(rival, &abce, 3);
    assert_eq!(cache.get(hash(&abcd), &abcd), None);
    assert_eq!(cache.get(rival, &abce), Some(3));
    // A board of another size is never kept.
    let five = faces("ABCDE");
    cache.put(hash(&five), &five, 9);
    assert_eq!(cache.get(hash(&five), &five), None);
}

#[test]
fn boards_above_4x4_anneal_a_hundred_times_longer_and_nothing_else_changes() {
    let small = Schedule::default();
    assert_eq!(Schedule::for_cells(16), small);
    assert_eq!(Schedule::for_cells(9), small);
    for cells in [20, 25, 36] {
        let large = Schedule::for_cells(cells);
        assert_eq!(large.steps, 1_000_000);
        assert_eq!(
            Schedule {
                steps: small.steps,
                ..large
            },
            small
        );
    }
    assert!(small.restart_spent);
}
