//! The `boggle prove` suite: the proof against brute force over every board
//! of 2x2 and 2x3 with small dictionaries, the bound of random classes
//! against boards drawn from them (proptest), and the shard, resume and
//! merge contract of the binary (a shard cut off mid-line and resumed; the
//! merged result equals the single-process one).

mod common;

use std::collections::BTreeSet;

use boggle::Dictionary;
use boggle::engine::search::Searcher;
use boggle::face::Face;
use boggle::modes::prove::classes::Buckets;
use boggle::modes::prove::tree::Prover;
use boggle::modes::prove::{Progress, Settings, Summary, class_letters, prove_groups};
use boggle::rules::{Preset, Rules};
use common::{TempDir, run_boggle};
use proptest::prelude::*;

/// Words over a few letters (with a `Qu` word), so every board can be tried.
const WORDS: &[&str] = &[
    "tea", "eat", "ate", "eta", "tae", "sat", "set", "sea", "tas", "east", "eats", "etas", "sate",
    "seat", "teas", "tase", "ates", "teat", "test", "stat", "tate", "state", "taste", "tates",
    "estate", "quest", "quat", "equate", "aqua", "tsetse", "sestet", "assets", "tassets",
];

/// The letters the words use; any other letter behaves like `Z` (no word has it).
const ALPHABET: &[u8] = b"AEQSTUZ";

/// Buckets that split the test alphabet across groups and cover a to z.
const BUCKETS: &str = "aeiou bcdfghjklmnp qrvwxyz st";

fn rules(rows: usize, cols: usize) -> Rules {
    Rules::sized(Preset::Classic, rows, cols)
}

/// A board of letters (0 = A), `Q` as `Qu`.
fn faces(letters: &[u8]) -> Vec<Face> {
    letters
        .iter()
        .map(|&l| {
            if l == b'Q' - b'A' {
                Face::QU
            } else {
                Face::letter(b'A' + l).expect("a letter")
            }
        })
        .collect()
}

/// Where a symmetry sends (row, column).
type CellMap = dyn Fn(usize, usize) -> (usize, usize);

/// The symmetric image of a board that sorts first (8 symmetries square, 4 otherwise).
fn canonical(letters: &[u8], rows: usize, cols: usize) -> Vec<u8> {
    let mut maps: Vec<Box<CellMap>> = vec![
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (r, cols - 1 - c)),
        Box::new(move |r, c| (rows - 1 - r, c)),
        Box::new(move |r, c| (rows - 1 - r, cols - 1 - c)),
    ];
    if rows == cols {
        maps.push(Box::new(|r, c| (c, r)));
        maps.push(Box::new(move |r, c| (cols - 1 - c, rows - 1 - r)));
        maps.push(Box::new(move |r, c| (c, rows - 1 - r)));
        maps.push(Box::new(move |r, c| (cols - 1 - c, r)));
    }
    maps.iter()
        .map(|f| {
            let mut image = vec![0u8; letters.len()];
            for (cell, &l) in letters.iter().enumerate() {
                let (r, c) = f(cell / cols, cell % cols);
                image[r * cols + c] = l;
            }
            image
        })
        .min()
        .expect("at least the identity")
}

/// Letters outside the alphabet become `Z`, as the brute force only tries `Z`.
fn reduce(text: &str) -> Vec<u8> {
    text.replace("QU", "Q")
        .bytes()
        .map(|b| if ALPHABET.contains(&b) { b } else { b'Z' })
        .map(|b| b - b'A')
        .collect()
}

/// Every board over the alphabet scoring at least `above`, up to symmetry, with its score.
fn brute_force(dictionary: &Dictionary, rules: &Rules, above: u32) -> BTreeSet<(Vec<u8>, u32)> {
    let cells = rules.cells();
    let mut searcher = Searcher::new(dictionary.trie(), rules);
    let mut found = BTreeSet::new();
    let mut digits = vec![0usize; cells];
    loop {
        let letters: Vec<u8> = digits.iter().map(|&d| ALPHABET[d] - b'A').collect();
        let score = searcher.score_faces(rules.rows, rules.cols, &faces(&letters));
        if score >= above {
            found.insert((canonical(&letters, rules.rows, rules.cols), score));
        }
        let mut i = 0;
        loop {
            if i == cells {
                return found;
            }
            digits[i] += 1;
            if digits[i] < ALPHABET.len() {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
    }
}

/// The proof's boards, reduced to the alphabet and made canonical again.
fn proved(
    dictionary: &Dictionary,
    rules: &Rules,
    above: u32,
    grouped: bool,
) -> (Summary, BTreeSet<(Vec<u8>, u32)>) {
    let mut settings = Settings::new(
        rules.clone(),
        Buckets::parse(BUCKETS).expect("valid buckets"),
        above,
    )
    .expect("a board the prover handles");
    settings.grouped = grouped;
    let groups = settings.classes().groups();
    let records = prove_groups(
        dictionary.trie(),
        &settings,
        &groups,
        &|_| false,
        2,
        &Progress::new(),
        |_| Ok(()),
    )
    .expect("the proof runs");
    let classes: usize = groups.iter().map(|g| g.classes.len()).sum();
    assert_eq!(records.len(), classes, "every class has a record");
    let summary = Summary::of(&records, above);
    let boards = summary
        .boards
        .iter()
        .map(|b| {
            (
                canonical(&reduce(&b.board), rules.rows, rules.cols),
                b.score,
            )
        })
        .collect();
    (summary, boards)
}

fn agrees_with_brute_force(rows: usize, cols: usize) {
    let dictionary = Dictionary::from_words(WORDS);
    let rules = rules(rows, cols);
    let all = brute_force(&dictionary, &rules, 1);
    let best = all
        .iter()
        .map(|&(_, s)| s)
        .max()
        .expect("some board scores");
    for above in [best.saturating_sub(4).max(1), best, best + 1] {
        let expected: BTreeSet<_> = all.iter().filter(|(_, s)| *s >= above).cloned().collect();
        // Classes proved with their corners grouped, and each on its own.
        for grouped in [true, false] {
            let (summary, got) = proved(&dictionary, &rules, above, grouped);
            assert_eq!(
                got, expected,
                "{rows}x{cols} above {above} grouped {grouped}"
            );
            assert_eq!(
                summary.boards.first().map(|b| b.score),
                expected.iter().map(|&(_, s)| s).max(),
            );
        }
    }
}

#[test]
fn two_by_two_agrees_with_every_board() {
    agrees_with_brute_force(2, 2);
}

#[test]
fn two_by_three_agrees_with_every_board() {
    agrees_with_brute_force(2, 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A class's bound is at least the score of any board drawn from it.
    #[test]
    fn bound_covers_boards_of_the_class(
        shape in prop::sample::select(vec![(2usize, 3usize), (3, 3), (3, 2)]),
        pick in prop::collection::vec(any::<u32>(), 9),
        draws in prop::collection::vec(prop::collection::vec(any::<u32>(), 9), 24),
    ) {
        let (rows, cols) = shape;
        let dictionary = Dictionary::from_words(WORDS);
        let rules = rules(rows, cols);
        let settings = Settings::new(rules.clone(), Buckets::parse(BUCKETS).expect("valid"), 0)
            .expect("small board");
        let classes = settings.classes();
        let class = u64::from(pick[0]) % classes.total();
        let letters = class_letters(&settings, &classes, class);
        let mut prover = Prover::new(dictionary.trie(), &rules);
        let bound = prover.build(&letters);
        let mut searcher = Searcher::new(dictionary.trie(), &rules);
        for draw in &draws {
            let board: Vec<u8> = letters
                .iter()
                .zip(draw)
                .map(|(bucket, &r)| bucket[r as usize % bucket.len()])
                .collect();
            let score = searcher.score_faces(rows, cols, &faces(&board));
            prop_assert!(bound >= score, "bound {} < {} for {:?}", bound, score, board);
        }
    }
}

fn prove_cli(dir: &TempDir, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "prove",
        "--rules",
        "classic",
        "--dict",
        "words.txt",
        "--size",
        "2x3",
        "--above",
        "6",
        "--buckets",
        BUCKETS,
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    run_boggle(dir.path(), &args, b"")
}

/// The lines of a report from the `proved:` line on, less the time line.
fn result_lines(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("proved:"))
        .filter(|l| {
            !l.starts_with("time:") && !l.starts_with("classes:") && !l.starts_with("highest bound")
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn shards_resume_and_merge_to_the_single_result() {
    let dir = TempDir::new("prove");
    dir.write("words.txt", WORDS.join("\n"));
    let single = prove_cli(&dir, &[]);
    assert_eq!(single.code, Some(0), "{}", single.stderr);
    assert!(single.stdout.starts_with("proved: "), "{}", single.stdout);

    for index in 0..3 {
        let shard = format!("{index}/3");
        let run = prove_cli(&dir, &["--shard", &shard, "--out", "out"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    // Shard 1 "killed" mid-run: half its lines, a partial line, no completion marker.
    let records = dir.path().join("out/shard-1-of-3.ndjson");
    let text = std::fs::read_to_string(&records).expect("shard 1 wrote its records");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2, "shard 1 has classes");
    let cut = format!("{}\n{{\"class\":", lines[..lines.len() / 2].join("\n"));
    std::fs::write(&records, cut).expect("cut the file");
    std::fs::remove_file(dir.path().join("out/shard-1-of-3.done")).expect("marker there");

    let incomplete = run_boggle(dir.path(), &["prove", "merge", "out"], b"");
    assert_eq!(incomplete.code, Some(1), "{}", incomplete.stdout);
    assert!(
        incomplete.stdout.contains("incomplete"),
        "{}",
        incomplete.stdout
    );

    let resumed = prove_cli(&dir, &["--shard", "1/3", "--out", "out", "--resume"]);
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert!(resumed.stderr.contains("resuming"), "{}", resumed.stderr);
    let text = std::fs::read_to_string(&records).expect("records");
    let ids: Vec<&str> = text
        .lines()
        .map(|l| l.split(',').next().unwrap_or(""))
        .collect();
    let distinct: BTreeSet<&&str> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "no class twice after resuming");

    let merged = run_boggle(dir.path(), &["prove", "merge", "out"], b"");
    assert_eq!(merged.code, Some(0), "{}{}", merged.stdout, merged.stderr);
    assert_eq!(result_lines(&merged.stdout), result_lines(&single.stdout));
}

#[test]
fn refuses_bad_flags_as_usage_errors() {
    let dir = TempDir::new("prove-usage");
    dir.write("words.txt", WORDS.join("\n"));
    for extra in [
        &["--shard", "3/3"][..],
        &["--shard", "x"],
        &["--buckets", "abc"],
        &["--threads", "0"],
    ] {
        let run = prove_cli(&dir, extra);
        assert_eq!(run.code, Some(2), "{extra:?}: {}", run.stderr);
    }
    let run = run_boggle(
        dir.path(),
        &["prove", "--dict", "words.txt", "--above", "5"],
        b"",
    );
    assert_eq!(run.code, Some(2), "--size is required");
    let run = run_boggle(dir.path(), &["prove", "merge", "nowhere"], b"");
    assert_eq!(run.code, Some(1));
}

/// The `sample:` line's counts: groups sampled, groups, classes sampled, classes.
fn sample_counts(stdout: &str) -> Option<(usize, usize, usize, usize)> {
    let line = stdout.lines().find(|l| l.starts_with("sample: "))?;
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    Some((numbers[0], numbers[1], numbers[2], numbers[3]))
}

#[test]
fn samples_groups_or_single_classes_and_estimates_the_whole() {
    let dir = TempDir::new("prove-sample");
    dir.write("words.txt", WORDS.join("\n"));
    let grouped = prove_cli(&dir, &["--sample", "2", "--seed", "1"]);
    assert_eq!(grouped.code, Some(0), "{}", grouped.stderr);
    let (picked, groups, sampled, classes) = sample_counts(&grouped.stdout).expect("a sample line");
    assert_eq!(picked, 2);
    assert!(
        groups < classes,
        "2x3 corners are grouped: {}",
        grouped.stdout
    );
    assert!(sampled >= 2, "{}", grouped.stdout);
    assert!(grouped.stdout.contains("estimate: "), "{}", grouped.stdout);

    let single = prove_cli(&dir, &["--sample", "2", "--seed", "1", "--per-class"]);
    assert_eq!(single.code, Some(0), "{}", single.stderr);
    assert_eq!(
        sample_counts(&single.stdout),
        Some((2, classes, 2, classes)),
        "{}",
        single.stdout
    );

    let alone = prove_cli(&dir, &["--per-class"]);
    assert_eq!(
        alone.code,
        Some(2),
        "--per-class needs --sample: {}",
        alone.stderr
    );
}

#[test]
fn the_report_says_thread_in_the_singular_and_help_marks_size_required() {
    let dir = TempDir::new("prove-words");
    dir.write("words.txt", WORDS.join("\n"));
    let run = prove_cli(&dir, &[]);
    assert!(run.stdout.contains(" s wall, 1 thread\n"), "{}", run.stdout);
    let help = run_boggle(dir.path(), &["prove", "--help"], b"");
    let size = help
        .stdout
        .lines()
        .skip_while(|line| !line.trim_start().starts_with("--size <"))
        .nth(1)
        .unwrap_or_default();
    assert!(size.ends_with("(required)"), "{size}");
    let game_help = run_boggle(dir.path(), &["--help"], b"");
    assert!(
        game_help
            .stdout
            .contains("needs a list with commonness levels"),
        "--words common says which lists have levels: {}",
        game_help.stdout
    );
}
