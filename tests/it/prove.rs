//! The `boggle prove` suite: the proof against brute force over every board
//! of 2x2 and 2x3 with small dictionaries, the bound of random classes
//! against boards drawn from them (proptest), and the shard, resume and
//! merge contract of the binary (a shard cut off mid-line and resumed; the
//! merged result equals the single-process one).

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use crate::common;
use common::assert_refused;

use std::collections::BTreeSet;

use boggle::Dictionary;
use boggle::face::Face;
use boggle::rules::{Preset, Rules};
use boggle_engine::search::Searcher;
use boggle_prove::Prover;
use boggle_prove::classes::Buckets;
use boggle_prove::shard::Shard;
use boggle_prove::{Progress, Settings, Summary, class_letters, prove_groups};
use common::{TempDir, assert_contains, run_boggle};
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
    let settings = Settings::new(
        rules.clone(),
        Buckets::parse(BUCKETS).expect("valid buckets"),
        above,
    )
    .expect("a board the prover handles")
    .grouped(grouped);
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

/// `boggle prove` of the test words on 2x3 above 6 with [`BUCKETS`], and `extra`.
fn prove_cli(dir: &TempDir, extra: &[&str]) -> common::Run {
    prove_with(dir, "2x3", BUCKETS, extra)
}

/// `boggle prove` of the test words on `size` above 6 with `buckets`, and `extra`.
fn prove_with(dir: &TempDir, size: &str, buckets: &str, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "prove",
        "--rules",
        "classic",
        "--dict",
        "words.txt",
        "--size",
        size,
        "--above",
        "6",
        "--buckets",
        buckets,
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    run_boggle(dir.path(), &args, b"")
}

/// The lines of a report from the `proved:` line on, less those that differ
/// between a run and a merge (time, classes, bounds, what was checked).
fn result_lines(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("proved:"))
        .filter(|l| {
            !l.starts_with("time:")
                && !l.starts_with("classes:")
                && !l.starts_with("highest bound")
                && !l.starts_with("checked:")
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
    assert_contains(&incomplete.stdout, "incomplete");

    let resumed = prove_cli(&dir, &["--shard", "1/3", "--out", "out", "--resume"]);
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert_contains(&resumed.stderr, "resuming");
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
    assert_contains(&grouped.stdout, "estimate: ");

    let single = prove_cli(&dir, &["--sample", "2", "--seed", "1", "--per-class"]);
    assert_eq!(single.code, Some(0), "{}", single.stderr);
    assert_eq!(
        sample_counts(&single.stdout),
        Some((2, classes, 2, classes)),
        "{}",
        single.stdout
    );

    assert!(
        !single.stdout.contains("--shard"),
        "a class sampled alone is not a shard's group: {}",
        single.stdout
    );

    // The slowest group's `--shard` proves that group alone: one group
    // sampled, so it is the slowest, and the shard proves its classes.
    let one = prove_cli(&dir, &["--sample", "1", "--seed", "3"]);
    let (_, _, sampled, _) = sample_counts(&one.stdout).expect("a sample line");
    let shard = one
        .stdout
        .split("--shard ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the slowest group's shard");
    let run = prove_cli(&dir, &["--shard", shard, "--out", "out"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let stem = Shard::parse(shard).expect("a shard the CLI takes").stem();
    let name = format!("{stem}.ndjson");
    let (_, records) = out_file(&dir, &name);
    assert_eq!(records.lines().count(), sampled, "{}", one.stdout);

    let alone = prove_cli(&dir, &["--per-class"]);
    assert_refused(&alone, "--sample <K>|--precision <P>|--budget <SECONDS>");
}

#[test]
fn refuses_bad_precisions_and_budgets_in_one_line() {
    let dir = TempDir::new("prove-sample-usage");
    dir.write("words.txt", WORDS.join("\n"));
    for (extra, says) in [
        (&["--precision", "0"][..], "above 0 and at most 1"),
        (&["--precision", "1.5"], "above 0 and at most 1"),
        (&["--precision", "a fifth"], "above 0 and at most 1"),
        (&["--precision=-0.2"], "above 0 and at most 1"),
        (&["--precision", "NaN"], "above 0 and at most 1"),
        (&["--budget", "0"], "CPU seconds above 0"),
        (&["--budget=-60"], "CPU seconds above 0"),
        (&["--budget", "1h"], "CPU seconds above 0"),
        (&["--budget", "inf"], "CPU seconds above 0"),
        (&["--sample", "0"], "--sample must be at least 1"),
        (
            &["--seed", "1"],
            "--sample <K>|--precision <P>|--budget <SECONDS>",
        ),
        (
            &["--costs", "costs.tsv"],
            "--sample <K>|--precision <P>|--budget <SECONDS>",
        ),
        (&["--budget", "60", "--shard", "0/2"], "cannot be used with"),
        (
            &["--precision", "0.2", "--out", "out"],
            "cannot be used with",
        ),
    ] {
        assert_refused(&prove_cli(&dir, extra), says);
    }
}

/// Runs a sample with `extra` and checks that it succeeds and that the last
/// line of its report, which says which rule stopped it, starts with `says`.
fn sample_stopped(dir: &TempDir, extra: &[&str], says: &str) -> common::Run {
    let run = prove_cli(dir, extra);
    assert_eq!(run.code, Some(0), "{extra:?}: {}", run.stderr);
    let last = run.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with(says), "{extra:?}: {}", run.stdout);
    run
}

#[test]
fn a_sample_says_which_rule_stopped_it_and_writes_each_groups_cost() {
    let dir = TempDir::new("prove-sample-stops");
    dir.write("words.txt", WORDS.join("\n"));
    sample_stopped(
        &dir,
        &["--sample", "3", "--seed", "2", "--costs", "costs.tsv"],
        "stopped by --sample 3: 3 groups drawn; ",
    );
    let costs = std::fs::read_to_string(dir.path().join("costs.tsv")).expect("--costs written");
    let lines: Vec<&str> = costs.lines().collect();
    assert!(lines[0].starts_with("# strata sizes: "), "{costs}");
    assert_eq!(lines[1], "# index\tgroup\tstratum\tclasses\tcpu");
    assert_eq!(lines.len(), 2 + 3, "a line a group: {costs}");
    assert!(
        lines[2..].iter().all(|l| l.split('\t').count() == 5),
        "{costs}"
    );

    // A budget spent before the first draw: two groups all the same.
    let budget = sample_stopped(
        &dir,
        &["--budget", "0.001", "--seed", "2"],
        "stopped by --budget 0.001: ",
    );
    let (sampled, ..) = sample_counts(&budget.stdout).expect("a sample line");
    assert_eq!(
        sampled, 2,
        "two groups however small the budget: {}",
        budget.stdout
    );

    // A loose precision is met as soon as every stratum has its minimum.
    let precise = sample_stopped(
        &dir,
        &["--precision", "1", "--seed", "2"],
        "stopped by --precision 1: the interval within ",
    );
    assert!(
        precise.stdout.contains("bootstrap-t and log-normal)"),
        "{}",
        precise.stdout
    );

    // With every rule given, the first to hold stops it.
    sample_stopped(
        &dir,
        &[
            "--sample",
            "1",
            "--precision",
            "0.01",
            "--budget",
            "3600",
            "--seed",
            "2",
        ],
        "stopped by --sample 1: ",
    );
    // Asked for more groups than there are, it proves them all.
    sample_stopped(
        &dir,
        &["--sample", "100000", "--seed", "2"],
        "stopped: every group was drawn; ",
    );
}

#[test]
fn the_report_says_thread_in_the_singular_and_help_marks_size_required() {
    let dir = TempDir::new("prove-words");
    dir.write("words.txt", WORDS.join("\n"));
    let run = prove_cli(&dir, &[]);
    assert_contains(&run.stdout, " s wall, 1 thread\n");
    let help = run_boggle(dir.path(), &["prove", "--help"], b"");
    let size = help
        .stdout
        .lines()
        .skip_while(|line| !line.trim_start().starts_with("--size <"))
        .nth(1)
        .unwrap_or_default();
    assert!(size.ends_with("(required)"), "{size}");
    let game_help = run_boggle(dir.path(), &["--help"], b"");
    // Help wraps to the terminal's width: read it as running text.
    let words: Vec<&str> = game_help.stdout.split_whitespace().collect();
    assert!(
        words
            .join(" ")
            .contains("needs a list with commonness levels"),
        "--words common says which lists have levels: {}",
        game_help.stdout
    );
}

/// The test proof run as three shards into `out`; the single-process report.
fn three_shards(dir: &TempDir) -> common::Run {
    dir.write("words.txt", WORDS.join("\n"));
    let single = prove_cli(dir, &[]);
    assert_eq!(single.code, Some(0), "{}", single.stderr);
    for index in 0..3 {
        let shard = format!("{index}/3");
        let run = prove_cli(dir, &["--shard", &shard, "--out", "out"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    single
}

/// The path of `out/NAME` in `dir` and what it holds.
fn out_file(dir: &TempDir, name: &str) -> (std::path::PathBuf, String) {
    let path = dir.path().join("out").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    (path, text)
}

/// `boggle prove merge out` in `dir`.
fn merge(dir: &TempDir) -> common::Run {
    run_boggle(dir.path(), &["prove", "merge", "out"], b"")
}

/// Asserts that `run` failed with a reason naming `names` and proved nothing.
fn refused(run: &common::Run, names: &str) {
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("proved:"), "{}", run.stdout);
    assert!(
        run.stderr.contains(names),
        "wanted {names:?} in {}",
        run.stderr
    );
    assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
}

#[test]
fn repeated_lines_count_once_when_resumed_and_merged() {
    let dir = TempDir::new("prove-repeats");
    let single = three_shards(&dir);
    let (records, text) = out_file(&dir, "shard-1-of-3.ndjson");
    let lines = text.lines().count();
    // Two overlapping retries of the shard, as a requeue can leave them.
    std::fs::write(&records, format!("{text}{text}")).expect("repeat the lines");
    std::fs::remove_file(dir.path().join("out/shard-1-of-3.done")).expect("marker there");

    let resumed = prove_cli(&dir, &["--shard", "1/3", "--out", "out", "--resume"]);
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert!(
        resumed
            .stderr
            .contains(&format!("resuming: {lines} of {lines} classes"))
            && resumed
                .stderr
                .contains(&format!("{lines} repeated lines ignored")),
        "{}",
        resumed.stderr
    );
    let merged = merge(&dir);
    assert_eq!(merged.code, Some(0), "{}{}", merged.stdout, merged.stderr);
    assert_eq!(result_lines(&merged.stdout), result_lines(&single.stdout));
}

#[test]
fn params_without_records_is_a_fresh_start_and_a_locked_shard_is_refused() {
    let dir = TempDir::new("prove-fresh");
    let single = three_shards(&dir);
    std::fs::remove_file(dir.path().join("out/shard-2-of-3.ndjson")).expect("records there");
    std::fs::remove_file(dir.path().join("out/shard-2-of-3.done")).expect("marker there");
    let fresh = prove_cli(&dir, &["--shard", "2/3", "--out", "out", "--resume"]);
    assert_eq!(fresh.code, Some(0), "{}", fresh.stderr);
    assert_eq!(
        result_lines(&merge(&dir).stdout),
        result_lines(&single.stdout)
    );

    let held = std::fs::File::open(dir.path().join("out/shard-0-of-3.ndjson")).expect("records");
    held.try_lock().expect("nothing else holds the lock");
    let second = prove_cli(&dir, &["--shard", "0/3", "--out", "out", "--resume"]);
    refused(&second, "another run of this shard holds its lock");
}

#[test]
fn a_forged_line_is_named_and_nothing_is_proved() {
    let dir = TempDir::new("prove-forged");
    three_shards(&dir);
    let (records, text) = out_file(&dir, "shard-0-of-3.ndjson");
    let (number, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("\"score\":"))
        .expect("shard 0 has a class with boards");
    let score = line
        .split("\"score\":")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .expect("a score");
    let forgeries = [
        line.replacen(&format!("\"score\":{score}"), "\"score\":999", 1),
        line.replacen("\"board\":\"", "\"board\":\"ZZ", 1),
        line.replacen("\"board\":\"", "\"board\":\"\u{1b}[31m", 1),
    ];
    for forged in forgeries {
        let edited = text.replacen(line, &forged, 1);
        std::fs::write(&records, edited).expect("forge a line");
        refused(
            &merge(&dir),
            &format!("shard-0-of-3.ndjson:{}:", number + 1),
        );
    }
    // A class emptied of its boards reads as a true line; the completion
    // marker's digest of the records sees it.
    let emptied: String = line
        .split("\"boards\":")
        .next()
        .map(|head| format!("{head}\"boards\":[],\"cpu\":0.0}}"))
        .expect("a line with boards");
    std::fs::write(&records, text.replacen(line, &emptied, 1)).expect("empty a class");
    refused(&merge(&dir), "shard-0-of-3");
}

#[test]
fn crafted_settings_shard_counts_buckets_and_files_are_refused() {
    let dir = TempDir::new("prove-crafted");
    three_shards(&dir);
    let (params, text) = out_file(&dir, "shard-0-of-3.params.json");
    for shards in ["0", "4294967295"] {
        std::fs::write(
            &params,
            text.replace("\"shards\":3", &format!("\"shards\":{shards}")),
        )
        .expect("craft the params");
        let run = merge(&dir);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert_contains(&run.stderr, "shard-0-of-3.params.json");
    }
    std::fs::write(&params, &text).expect("put the params back");

    let same = run_boggle(dir.path(), &["prove", "merge", "out", "out"], b"");
    refused(&same, "the same shard twice");

    let many = prove_cli(&dir, &["--shard", "0/4294967295", "--out", "many"]);
    assert_eq!(many.code, Some(2), "{}", many.stderr);
    assert!(!dir.path().join("many").exists(), "refused before writing");

    let letters: Vec<String> = ('a'..='z').map(String::from).collect();
    let huge = prove_with(&dir, "3x3", &letters.join(" "), &[]);
    assert_eq!(huge.code, Some(2), "{}", huge.stderr);
    assert_contains(&huge.stderr, "classes before symmetry");

    #[cfg(unix)]
    {
        let records = dir.path().join("out/shard-1-of-3.ndjson");
        std::fs::remove_file(&records).expect("records there");
        common::plant(&records, common::Plant::Fifo);
        refused(&merge(&dir), "not a regular file");
        let resume = prove_cli(&dir, &["--shard", "1/3", "--out", "out", "--resume"]);
        refused(&resume, "not a regular file");
    }
}

/// A symbolic link planted under a shard's records name is
/// not followed (its target is left as it was), and `--resume` with the
/// records there but the settings gone refuses and says why instead of
/// starting over.
#[cfg(unix)]
#[test]
fn planted_links_are_not_followed_and_records_without_settings_are_kept() {
    let dir = TempDir::new("prove-planted");
    dir.write("words.txt", WORDS.join("\n"));
    std::fs::create_dir_all(dir.path().join("out")).expect("out");
    let target = dir.write("precious.txt", "not a shard\n");
    let link = dir.path().join("out/shard-0-of-4.ndjson");
    std::os::unix::fs::symlink(&target, &link).expect("a link");
    let run = prove_cli(&dir, &["--shard", "0/4", "--out", "out"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_contains(&run.stderr, "not a regular file");
    assert_eq!(
        std::fs::read_to_string(&target).ok().as_deref(),
        Some("not a shard\n")
    );
    std::fs::remove_file(&link).expect("the link removed");

    let run = prove_cli(&dir, &["--shard", "1/3", "--out", "out"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let records = dir.path().join("out/shard-1-of-3.ndjson");
    let before = std::fs::read_to_string(&records).expect("records");
    assert!(!before.is_empty(), "shard 1 has records");
    std::fs::remove_file(dir.path().join("out/shard-1-of-3.params.json")).expect("settings");
    let resumed = prove_cli(&dir, &["--shard", "1/3", "--out", "out", "--resume"]);
    assert_eq!(resumed.code, Some(1), "{}", resumed.stderr);
    assert!(
        resumed.stderr.contains("is missing while") && resumed.stderr.contains("--resume"),
        "{}",
        resumed.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&records).ok().as_deref(),
        Some(before.as_str()),
        "the records are kept"
    );
}
