//! Checks against the course and research reference files, which are not in
//! the repository (their licences do not allow it). They are ignored by a plain
//! `cargo test`, which lists them as ignored with the reason; `make reference`
//! runs them (`BOGGLE_REFERENCE=DIR cargo test --test it reference:: -- --ignored`,
//! DIR holding `reference-dicts/` and `reference-boards/`), and there a
//! missing variable or file is a failure, not a pass.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use std::path::PathBuf;
use std::sync::Arc;

use boggle::{Dictionary, Preset, QReads, Rules, WordFind};
use boggle_play::board_file::{parse_board_file, parse_board_line};
use boggle_play::modes::bench::solve_all;

fn reference() -> PathBuf {
    std::env::var_os("BOGGLE_REFERENCE")
        .map(PathBuf::from)
        .expect("BOGGLE_REFERENCE names the folder with reference-dicts/ and reference-boards/")
}

fn dictionary(root: &std::path::Path, name: &str) -> Arc<Dictionary> {
    Arc::new(
        Dictionary::from_file(root.join("reference-dicts").join(name))
            .expect("reference dictionary loads"),
    )
}

fn algs4_score(find: &WordFind, path: &std::path::Path) -> u32 {
    let text = std::fs::read_to_string(path).expect("board file reads");
    let board = parse_board_file(&text, QReads::Qu).expect("board file parses");
    let mut rules = find.rules().clone();
    rules.rows = board.rows();
    rules.cols = board.cols();
    WordFind::with_rules(Arc::clone(find.dictionary()), rules).total_points(&board)
}

#[test]
#[ignore = "needs the reference files: make reference"]
fn algs4_boards_score_as_published() {
    let root = reference();
    let boards = root.join("reference-boards").join("algs4");
    let small = WordFind::with_rules(
        dictionary(&root, "dictionary-algs4.txt"),
        Rules::preset(Preset::Algs4),
    );
    assert_eq!(algs4_score(&small, &boards.join("board4x4.txt")), 33);
    assert_eq!(algs4_score(&small, &boards.join("board-q.txt")), 84);
    let yawl = WordFind::with_rules(
        dictionary(&root, "dictionary-yawl.txt"),
        Rules::preset(Preset::Algs4),
    );
    for entry in std::fs::read_dir(&boards).expect("algs4 folder") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if let Some(points) = name.strip_prefix("board-points") {
            let expected: u32 = points.parse().expect("number in the name");
            assert_eq!(algs4_score(&yawl, &path), expected, "{name}");
        }
    }
}

#[test]
#[ignore = "needs the reference files: make reference"]
fn dice_boards_total_as_every_solver_agrees() {
    let root = reference();
    let text =
        std::fs::read_to_string(root.join("reference-boards/dice-4x4-100k-seed20251122.txt"))
            .expect("boards");
    let rules = Rules::preset(Preset::Classic);
    let boards: Vec<_> = text
        .lines()
        .take(1000)
        .map(|line| parse_board_line(line, 4, 4, QReads::Qu).expect("board line"))
        .collect();
    for (name, total) in [("enable2k.txt", 137_457), ("dictionary-yawl.txt", 184_259)] {
        let dictionary = dictionary(&root, name);
        for threads in [1, 2] {
            assert_eq!(
                solve_all(dictionary.trie(), &rules, &boards, threads).score,
                total,
                "{name}"
            );
        }
    }
}
