//! Tidy checks on the source tree: the layout a reader should find (the
//! design's classes at the top of `src/`, no more than 12 files there), a
//! `//!` header on every module of every crate, `unsafe` only in the search
//! engine's crate, and the lint that makes every unsafe block say why it is
//! sound.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The source folders of the workspace: the root package's and each crate's.
fn source_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("src")];
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/ is readable") {
        dirs.push(entry.expect("a directory entry").path().join("src"));
    }
    dirs.sort();
    dirs
}

/// Every `.rs` file of the workspace's sources.
fn all_sources() -> Vec<PathBuf> {
    source_dirs()
        .iter()
        .flat_map(|dir| rust_files(dir))
        .collect()
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn the_design_classes_are_at_the_top_of_src() {
    let top: Vec<String> = rust_files(&root().join("src"))
        .iter()
        .filter(|p| p.parent() == Some(&root().join("src")))
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for design in [
        "die.rs",
        "game_board.rs",
        "dictionary.rs",
        "word_find.rs",
        "game.rs",
    ] {
        assert!(top.iter().any(|f| f == design), "{design} in {top:?}");
    }
    assert!(
        top.len() <= 12,
        "{} files at the top of src/: {top:?}",
        top.len()
    );
}

#[test]
fn every_module_starts_with_a_header() {
    let missing: Vec<String> = all_sources()
        .into_iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            !text.starts_with("//!")
        })
        .map(|path| relative(&path))
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a //! header: {missing:?}"
    );
}

#[test]
fn unsafe_code_stays_in_the_engine() {
    let engine = root().join("crates").join("boggle-engine");
    let mut outside = Vec::new();
    for path in all_sources() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let is_unsafe = code
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|token| token == "unsafe");
            if is_unsafe && !path.starts_with(&engine) {
                outside.push(format!("{}:{}", relative(&path), number + 1));
            }
        }
    }
    assert!(
        outside.is_empty(),
        "unsafe outside crates/boggle-engine/: {outside:?}"
    );
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        manifest.contains("[workspace.lints.clippy]")
            && manifest.contains("undocumented_unsafe_blocks = \"deny\""),
        "Cargo.toml denies undocumented unsafe blocks"
    );
}
