//! Properties that hold for every board, dictionary and rule set, checked on
//! random ones: the engine finds exactly what a slow, obviously-correct search
//! finds (with every walker the processor has: the vector walk on AVX-512
//! and on AVX2, the bitmask walk), scores add up, a game never scores a word
//! twice, and the parsers take any bytes without a panic. The console loop's
//! and the binary's other readers' properties are its unit tests
//! (`src/play/properties.rs`).
//!
//! `PROPTEST_CASES=N` runs N cases per property instead of the defaults here.
//! To hold a new mode or engine to the same standard, add a property that
//! builds its input from the strategies below and compares with `reference`.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

use boggle::dictionary::MAX_WORD_LEN;
use boggle::{Dictionary, Face, Game, GameBoard, MoveRule, QReads, Rules, Scoring, WordFind};
use boggle_engine::cpu::Simd;
use boggle_engine::path;
use proptest::prelude::*;

use crate::common::strategies::{cases, hostile_bytes};

// ---------------------------------------------------------------------------
// The reference search: every simple path, no pruning, no trie.

/// The cells `cell` may step to, straight from the rule's definition.
fn steps(rows: usize, cols: usize, moves: MoveRule, cell: usize) -> Vec<usize> {
    let (row, col) = ((cell / cols) as isize, (cell % cols) as isize);
    let mut next = Vec::new();
    for r in row - 1..=row + 1 {
        for c in col - 1..=col + 1 {
            let on_board = r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols;
            let allowed = match moves {
                MoveRule::EightNeighbours => true,
                MoveRule::NoUp => r >= row,
            };
            if on_board && allowed && (r, c) != (row, col) {
                next.push(r as usize * cols + c as usize);
            }
        }
    }
    next
}

/// Every word of `words` that some simple path spells under `rules`, with one such path.
/// Paths stop only when they are longer than every word that fits on the board
/// (a simple path spells at most the board's letters), so no word could follow.
fn reference(
    board: &GameBoard,
    words: &HashSet<String>,
    rules: &Rules,
) -> BTreeMap<String, Vec<usize>> {
    let letters: usize = board.faces().iter().map(Face::len).sum();
    let longest = words
        .iter()
        .map(String::len)
        .filter(|&len| len <= letters)
        .max()
        .unwrap_or(0);
    let cells = board.faces().len();
    let moves = (0..cells)
        .map(|cell| steps(board.rows(), board.cols(), rules.moves, cell))
        .collect();
    let mut walk = Walk {
        board,
        words,
        rules,
        moves,
        longest,
        path: Vec::new(),
        spelled: String::new(),
        found: BTreeMap::new(),
    };
    for start in 0..cells {
        walk.from(start);
    }
    walk.found
}

/// The reference search's state while it walks.
struct Walk<'a> {
    board: &'a GameBoard,
    words: &'a HashSet<String>,
    rules: &'a Rules,
    moves: Vec<Vec<usize>>,
    longest: usize,
    path: Vec<usize>,
    spelled: String,
    found: BTreeMap<String, Vec<usize>>,
}

impl Walk<'_> {
    /// Follows every simple path that continues at `cell`.
    fn from(&mut self, cell: usize) {
        let face = self.board.faces()[cell];
        if face.is_empty()
            || self.path.contains(&cell)
            || self.spelled.len() + face.len() > self.longest
        {
            return;
        }
        let before = self.spelled.len();
        self.spelled.push_str(face.as_str());
        self.path.push(cell);
        let is_word = self.words.contains(&self.spelled);
        if is_word
            && self.rules.allows_len(self.spelled.len())
            && !self.found.contains_key(&self.spelled)
        {
            self.found.insert(self.spelled.clone(), self.path.clone());
        }
        for i in 0..self.moves[cell].len() {
            self.from(self.moves[cell][i]);
        }
        self.path.pop();
        self.spelled.truncate(before);
    }
}

/// Whether `cells` is a path that spells `word` on `board` under `moves`.
fn spells(board: &GameBoard, moves: MoveRule, word: &str, cells: &[usize]) -> bool {
    let distinct: HashSet<&usize> = cells.iter().collect();
    let letters: String = cells
        .iter()
        .map(|&c| board.faces().get(c).map_or("?", Face::as_str))
        .collect();
    let linked = cells
        .windows(2)
        .all(|w| steps(board.rows(), board.cols(), moves, w[0]).contains(&w[1]));
    !cells.is_empty()
        && distinct.len() == cells.len()
        && cells
            .iter()
            .all(|&c| board.faces().get(c).is_some_and(|f| !f.is_empty()))
        && linked
        && letters == word
}

// ---------------------------------------------------------------------------
// Strategies.

/// A cell as the generator writes it: a plain letter, `Q`, `Th`, or blank.
const CELLS: &[&str] = &["A", "B", "E", "S", "T", "A", "E", "Q", "U", "TH", "-"];
/// Letters dictionary words are made of: the board's, plus one never on a board.
const LETTERS: &[u8] = b"ABESTQUHZ";

/// Either way of reading a `Q`.
fn q_reads() -> impl Strategy<Value = QReads> {
    prop_oneof![Just(QReads::Q), Just(QReads::Qu)]
}

/// A random board of 1x1 to 5x5 cells, each `Q` read as `q` says.
fn board(q: QReads) -> impl Strategy<Value = GameBoard> {
    sized_board(q, 1..=5, 1..=5)
}

/// A random board with rows and columns in the given ranges.
fn sized_board(
    q: QReads,
    rows: std::ops::RangeInclusive<usize>,
    cols: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = GameBoard> {
    (rows, cols)
        .prop_flat_map(|(rows, cols)| {
            (
                Just(rows),
                Just(cols),
                prop::collection::vec(prop::sample::select(CELLS), rows * cols),
            )
        })
        .prop_map(move |(rows, cols, cells)| {
            let faces = cells
                .iter()
                .map(|&c| match (c, q) {
                    ("Q", QReads::Qu) => Face::QU,
                    _ => Face::parse(c).unwrap_or(Face::BLANK),
                })
                .collect();
            GameBoard::from_faces(rows, cols, faces).unwrap_or_else(|e| panic!("{e}"))
        })
}

/// A word spelled by walking the board from `start`, taking step `turns[i]`
/// (modulo the choices) at each cell and stopping where the walk is stuck.
fn planted(board: &GameBoard, moves: MoveRule, start: usize, turns: &[usize]) -> String {
    let mut cell = start % board.faces().len();
    let mut used = vec![false; board.faces().len()];
    let mut word = String::new();
    for &turn in turns {
        used[cell] = true;
        word.push_str(board.faces()[cell].as_str());
        let next: Vec<usize> = steps(board.rows(), board.cols(), moves, cell)
            .into_iter()
            .filter(|&c| !used[c])
            .collect();
        if next.is_empty() {
            break;
        }
        cell = next[turn % next.len()];
    }
    word
}

/// A random word of 1 to `max` letters from [`LETTERS`].
fn loose_word(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(LETTERS), 1..=max)
        .prop_map(|w| String::from_utf8_lossy(&w).into_owned())
}

/// Scoring tables the presets use.
fn scoring() -> impl Strategy<Value = Scoring> {
    prop_oneof![
        Just(Scoring::PROJECT4),
        Just(Scoring::STANDARD),
        Just(Scoring::LengthMinus(3)),
    ]
}

/// One case: rules, a board, and a dictionary holding words planted on the
/// board (with their prefixes and one-letter extensions), random words, and
/// words longer than the board.
#[derive(Debug, Clone)]
struct Case {
    rules: Rules,
    board: GameBoard,
    words: Vec<String>,
}

fn case() -> impl Strategy<Value = Case> {
    let rules = (
        prop_oneof![Just(MoveRule::NoUp), Just(MoveRule::EightNeighbours)],
        q_reads(),
        1usize..=4,
        prop::option::weighted(0.2, 2usize..=8),
        scoring(),
    );
    rules
        .prop_flat_map(|(moves, q, min_len, max_len, scoring)| {
            let rules = Rules {
                moves,
                q,
                min_len,
                max_len: max_len.map(|m| m.max(min_len)),
                scoring,
                ..Rules::project4()
            };
            (
                Just(rules),
                board(q),
                prop::collection::vec((0usize..25, prop::collection::vec(0usize..8, 1..=7)), 0..6),
                prop::collection::vec(loose_word(4), 0..40),
                prop::collection::vec(loose_word(3), 0..3),
            )
        })
        .prop_map(|(mut rules, board, walks, loose, tails)| {
            rules.rows = board.rows();
            rules.cols = board.cols();
            let mut words = loose;
            for (start, turns) in walks {
                let word = planted(&board, rules.moves, start, &turns);
                for end in 1..word.len() {
                    words.push(word[..end].to_owned());
                }
                words.extend(tails.iter().map(|t| format!("{word}{t}")));
                words.push(word);
            }
            // The reference walks every path up to the longest word that fits,
            // so bigger boards get shorter words to keep it quick.
            let letters: usize = board.faces().iter().map(Face::len).sum();
            let budget = match board.faces().len() {
                0..=10 => 10,
                11..=16 => 6,
                _ => 5,
            };
            words.retain(|w| w.len() <= budget || w.len() > letters);
            // Longer than any path on the board can spell.
            words.push("AB".repeat(letters + 1));
            words.push("E".repeat(letters + 1));
            Case {
                rules,
                board,
                words,
            }
        })
}

fn finder(case: &Case) -> WordFind {
    WordFind::with_rules(
        Arc::new(Dictionary::from_words(&case.words)),
        case.rules.clone(),
    )
}

fn word_set(case: &Case) -> HashSet<String> {
    case.words.iter().cloned().collect()
}

fn points(rules: &Rules, words: impl IntoIterator<Item = impl AsRef<str>>) -> u32 {
    words
        .into_iter()
        .map(|w| rules.word_score(w.as_ref().len()))
        .sum()
}

// ---------------------------------------------------------------------------
// The engine against the reference.

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn search_finds_exactly_the_reference_words(case in case()) {
        let find = finder(&case);
        let expected = reference(&case.board, &word_set(&case), &case.rules);
        let got = find.get_all_words(&case.board);
        let expected_words: BTreeSet<String> = expected.keys().cloned().collect();
        prop_assert_eq!(&got, &expected_words, "board\n{}", case.board);
        for (word, cells) in &expected {
            prop_assert!(spells(&case.board, case.rules.moves, word, cells), "{word}: {cells:?}");
            let path = path::find_path(&case.board, case.rules.moves, word);
            prop_assert!(
                path.as_ref().is_some_and(|p| spells(&case.board, case.rules.moves, word, p)),
                "find_path({word}) gave {path:?}"
            );
        }
        prop_assert_eq!(find.total_points(&case.board), points(&case.rules, &got));
    }

    #[test]
    fn the_searcher_reports_each_word_once_and_scores_them(case in case()) {
        let find = finder(&case);
        let trie = find.dictionary().trie();
        let mut searcher = find.searcher();
        let found: Vec<(String, u32)> = searcher
            .find(&case.board)
            .iter()
            .map(|f| (trie.word(f.node), f.len))
            .collect();
        let distinct: BTreeSet<&String> = found.iter().map(|(w, _)| w).collect();
        prop_assert_eq!(distinct.len(), found.len(), "a word reported twice: {:?}", found);
        for (word, len) in &found {
            prop_assert_eq!(word.len(), *len as usize);
        }
        let words = found.iter().map(|(w, _)| w);
        prop_assert_eq!(searcher.score(&case.board), points(&case.rules, words));
    }

    #[test]
    fn every_walker_the_processor_has_finds_exactly_the_reference_words(case in case()) {
        // The vector walk on AVX-512 and on AVX2, and the bitmask walk, where
        // the processor has them: a machine with AVX-512 tests the AVX2 walk too.
        let find = finder(&case);
        let trie = find.dictionary().trie();
        let expected = reference(&case.board, &word_set(&case), &case.rules);
        let expected_words: BTreeSet<String> = expected.keys().cloned().collect();
        for level in Simd::present_levels() {
            let mut searcher = find.searcher();
            prop_assert!(searcher.set_simd(level).is_ok(), "{level:?} is present");
            let got: BTreeSet<String> =
                searcher.find(&case.board).iter().map(|f| trie.word(f.node)).collect();
            prop_assert_eq!(&got, &expected_words, "{:?} on board\n{}", level, case.board);
            prop_assert_eq!(searcher.score(&case.board), points(&case.rules, &got), "{:?}", level);
        }
    }

    #[test]
    fn the_design_dfs_agrees_with_the_engine(case in case()) {
        let find = finder(&case);
        let mut found = BTreeSet::new();
        let mut chosen = vec![false; case.board.faces().len()];
        for cell in 0..case.board.faces().len() {
            find.append_dfs_words(&case.board, &mut String::new(), &mut found, &mut chosen, cell);
        }
        prop_assert_eq!(found, find.get_all_words(&case.board));
    }
}

proptest! {
    #![proptest_config(cases(200))]

    #[test]
    fn one_searcher_serves_many_boards(first in case(), boards in prop::collection::vec(board(QReads::Qu), 1..4)) {
        // Scratch space kept between boards of other shapes must never leak words.
        // Words of up to 5 letters keep the reference quick on every board.
        let mut first = first;
        first.words.retain(|w| w.len() <= 5);
        let find = finder(&first);
        let set = word_set(&first);
        let mut searcher = find.searcher();
        for board in std::iter::once(&first.board).chain(&boards) {
            let got = searcher.score(board);
            let expected = reference(board, &set, &first.rules);
            prop_assert_eq!(got, points(&first.rules, expected.keys()), "board\n{}", board);
            prop_assert_eq!(searcher.find(board).len(), expected.len());
        }
    }

    #[test]
    fn boards_over_64_cells_search_the_same(
        board in sized_board(QReads::Qu, 8..=10, 8..=10),
        moves in prop_oneof![Just(MoveRule::NoUp), Just(MoveRule::EightNeighbours)],
        words in prop::collection::vec(loose_word(3), 1..80),
    ) {
        // Past 64 cells the engine tracks the path in a bit vector, not a word.
        let rules = Rules { moves, q: QReads::Qu, min_len: 1, rows: board.rows(), cols: board.cols(), ..Rules::project4() };
        let find = WordFind::with_rules(Arc::new(Dictionary::from_words(&words)), rules.clone());
        let expected = reference(&board, &words.iter().cloned().collect(), &rules);
        let got = find.get_all_words(&board);
        prop_assert_eq!(got.iter().collect::<Vec<_>>(), expected.keys().collect::<Vec<_>>());
        prop_assert_eq!(find.total_points(&board), points(&rules, &got));
    }
}

// ---------------------------------------------------------------------------
// Games: guesses score once, and only invalid ones count as incorrect.

/// Guesses drawn from the board's words, the dictionary, and junk, in any case.
fn guesses(case: &Case) -> impl Strategy<Value = Vec<String>> + use<> {
    let mut pool: Vec<String> = case.words.clone();
    pool.extend(["", "q", "é", "A B", "\u{0}", "ZZZZ"].map(String::from));
    let words = prop::sample::select(pool);
    let guess = (words, any::<bool>(), loose_word(5), 0u8..4).prop_map(|(w, lower, junk, pick)| {
        let w = if pick == 0 { junk } else { w };
        if lower { w.to_ascii_lowercase() } else { w }
    });
    prop::collection::vec(guess, 0..60)
}

proptest! {
    #![proptest_config(cases(400))]

    #[test]
    fn guesses_score_once_and_count_only_invalid_words(
        (case, guesses) in case().prop_flat_map(|c| (Just(c.clone()), guesses(&c)))
    ) {
        let find = finder(&case);
        let valid: BTreeSet<String> = reference(&case.board, &word_set(&case), &case.rules)
            .into_keys()
            .collect();
        let mut game = Game::from_board(case.board.clone(), &find);
        prop_assert_eq!(game.words(), &valid);
        prop_assert_eq!(game.get_total_points_possible(), points(&case.rules, &valid));
        let mut scored = BTreeSet::new();
        let (mut score, mut incorrect) = (0, 0);
        for guess in &guesses {
            let upper = guess.to_ascii_uppercase();
            let is_valid = valid.contains(&upper);
            let is_new = is_valid && scored.insert(upper.clone());
            if is_new {
                score += case.rules.word_score(upper.len());
            }
            if !is_valid {
                incorrect += 1;
            }
            prop_assert_eq!(game.guess(guess), is_new, "guess {:?}", guess);
            prop_assert_eq!(game.get_score(), score);
            prop_assert_eq!(game.get_incorrect_guesses(), incorrect);
        }
        prop_assert!(game.get_score() <= game.get_total_points_possible());
        prop_assert_eq!(game.is_complete(), score > 0 && score == game.get_total_points_possible());
    }
}

// ---------------------------------------------------------------------------
// Any bytes: the dictionary and board parsers.

proptest! {
    #![proptest_config(cases(600))]

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the dictionary's own lookup is the property under test"
    )]
    fn any_bytes_make_a_dictionary_of_exactly_the_letter_lines(bytes in hostile_bytes()) {
        let dictionary = Dictionary::parse(&bytes);
        let body = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
        // A line is a word, or a word, blanks and its commonness level (0 to 255).
        let word_of = |line: &[u8]| -> Option<String> {
            let line = line.trim_ascii();
            let at = line.iter().position(u8::is_ascii_whitespace).unwrap_or(line.len());
            let (word, level) = (&line[..at], line[at..].trim_ascii());
            let level_ok = level.is_empty()
                || std::str::from_utf8(level).is_ok_and(|l| l.parse::<u8>().is_ok());
            let is_word = !word.is_empty()
                && word.len() <= MAX_WORD_LEN
                && word.iter().all(u8::is_ascii_alphabetic);
            (level_ok && is_word).then(|| String::from_utf8_lossy(word).to_ascii_uppercase())
        };
        let expected: BTreeSet<String> = body.split(|&b| b == b'\n').filter_map(word_of).collect();
        let got: BTreeSet<String> = dictionary.words().map(str::to_owned).collect();
        prop_assert_eq!(&got, &expected);
        for word in &got {
            prop_assert!(dictionary.is_word(word) && dictionary.is_prefix(word));
        }
    }

    #[test]
    fn any_text_makes_a_board_or_an_error(
        bytes in hostile_bytes(),
        rows in 0usize..7,
        cols in 0usize..7,
        q in q_reads(),
    ) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = GameBoard::new(&text);
        let boards = [
            GameBoard::from_letters(&text, rows, cols, q),
            GameBoard::from_cells(text.split_whitespace(), rows, cols, q),
        ];
        for board in boards.into_iter().flatten() {
            prop_assert_eq!((board.rows(), board.cols()), (rows, cols));
            let shown = board.show_board();
            let again = GameBoard::from_cells(shown.split_whitespace(), rows, cols, QReads::Q);
            prop_assert_eq!(again, Ok(board));
        }
    }

    #[test]
    fn typed_boards_read_back(case in case()) {
        // A board of letters and Qu, written as letters (Qu as `QU`, or as `q`
        // where no `U` cell follows it), parses to itself.
        let (rows, cols, q) = (case.board.rows(), case.board.cols(), case.rules.q);
        let faces = case.board.faces().iter().map(|&f| match f.len() {
            1 => f,
            2 if q == QReads::Qu && f == Face::QU => f,
            _ => Face::parse("A").unwrap_or(f),
        });
        let board = GameBoard::from_faces(rows, cols, faces.collect())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let text = board.letters();
        prop_assert_eq!(GameBoard::from_letters(&text, rows, cols, q), Ok(board.clone()));
        if q == QReads::Qu && !text.contains("QUU") {
            let short = text.replace("QU", "q");
            prop_assert_eq!(GameBoard::from_letters(&short, rows, cols, QReads::Qu), Ok(board.clone()));
        }
    }
}
