//! Checks against the course and research reference files, which are not in
//! the repository (their licences do not allow it). They are ignored by a plain
//! `cargo test`, which lists them as ignored with the reason; `make reference`
//! runs them (`BOGGLE_REFERENCE=DIR cargo test --test it reference:: -- --ignored`,
//! DIR holding `reference-dicts/` and `reference-boards/`), and there a
//! missing variable or file is a failure, not a pass. Each runs the built
//! binary (`boggle solve`, `boggle bench`), as a user would.

use std::path::{Path, PathBuf};

use crate::common::{TempDir, run_boggle};

fn reference() -> PathBuf {
    std::env::var_os("BOGGLE_REFERENCE")
        .map(PathBuf::from)
        .expect("BOGGLE_REFERENCE names the folder with reference-dicts/ and reference-boards/")
}

fn dictionary(root: &Path, name: &str) -> String {
    let path = root.join("reference-dicts").join(name);
    assert!(path.is_file(), "{} is there", path.display());
    path.to_string_lossy().into_owned()
}

/// The number after `key` in `text` (`Score = 33`, `total_score=137457`).
fn figure(text: &str, key: &str) -> u64 {
    let (_, after) = text
        .rsplit_once(key)
        .unwrap_or_else(|| panic!("{key} in {text}"));
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("a number after {key} in {text}"))
}

/// The score `boggle solve` prints for the board file at `path` (each board
/// keeps its own shape) under algs4's rules with the word list `dictionary`.
fn algs4_score(dictionary: &str, path: &Path) -> u64 {
    let board = path.to_string_lossy();
    let args = ["solve", "--rules", "algs4", "--dict", dictionary, &board];
    let run = run_boggle(&std::env::temp_dir(), &args, b"");
    assert_eq!(run.code, Some(0), "{}: {}", path.display(), run.stderr);
    figure(&run.stdout, "Score = ")
}

#[test]
#[ignore = "needs the reference files: make reference"]
fn algs4_boards_score_as_published() {
    let root = reference();
    let boards = root.join("reference-boards").join("algs4");
    let small = dictionary(&root, "dictionary-algs4.txt");
    assert_eq!(algs4_score(&small, &boards.join("board4x4.txt")), 33);
    assert_eq!(algs4_score(&small, &boards.join("board-q.txt")), 84);
    let yawl = dictionary(&root, "dictionary-yawl.txt");
    for entry in std::fs::read_dir(&boards).expect("algs4 folder") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if let Some(points) = name.strip_prefix("board-points") {
            let expected: u64 = points.parse().expect("number in the name");
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
    let dir = TempDir::new("reference");
    let first: Vec<&str> = text.lines().take(1000).collect();
    let boards = dir.write("boards.txt", first.join("\n"));
    let boards = boards.to_string_lossy();
    for (name, total) in [("enable2k.txt", 137_457), ("dictionary-yawl.txt", 184_259)] {
        let dictionary = dictionary(&root, name);
        for threads in ["1", "2"] {
            let args = [
                "bench",
                "--rules",
                "classic",
                "--dict",
                &dictionary,
                "--boards",
                &boards,
                "--threads",
                threads,
            ];
            let run = run_boggle(dir.path(), &args, b"");
            assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
            assert_eq!(figure(&run.stdout, "boards="), 1000, "{}", run.stdout);
            assert_eq!(figure(&run.stdout, "total_score="), total, "{name}");
        }
    }
}
