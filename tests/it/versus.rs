//! `boggle versus` through the built binary: a round on a typed board with
//! plain marking, and the refusal of rules without a dictionary. Whole
//! rounds on a fixed board and a fake clock are the mode's unit tests
//! (`src/play/modes/versus_tests.rs`).

use crate::common;

use common::{TempDir, assert_contains, run_boggle};

const WORDS: &[&str] = &[
    "QUIT", "QUITE", "QUITS", "QIT", "RITE", "STIR", "NEST", "TEN", "TENS", "AIR", "ARTS",
    "STRAINED", "TRAINED", "TIRE",
];

#[test]
fn the_binary_plays_with_plain_marking_and_refuses_ece209() {
    let dir = TempDir::new("versus");
    dir.write("dict.txt", WORDS.join("\n"));
    let run = run_boggle(
        dir.path(),
        &["versus", "--dict", "dict.txt", "--rules", "classic"],
        b"y\nQUITEARSNSTRADENI\nten\n",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_contains(&run.stdout, "You found TEN: 1 point.\n");
    assert_contains(&run.stdout, "Qu I  t  e\nA  R  S  n\n");
    assert!(!run.stdout.contains('\x1b'));
    assert!(
        run.stdout
            .ends_with("You won 0 of 1 round. Thanks for playing!\n")
    );
    let refused = run_boggle(dir.path(), &["versus", "--rules", "ece209"], b"");
    assert_eq!(refused.code, Some(2));
    assert!(refused.stderr.contains("needs rules with a dictionary"));
}
