//! Tidy checks on what neither Cargo nor a lint checks: the layout a reader
//! should find (the design's classes at the top of `boggle-game`), a `//!`
//! header on every module of every crate, no source file over 1,000 lines,
//! no import cycle inside a crate, nothing below `cli` importing from it,
//! which crates each layer may reach (`cargo tree`, transitively), and that
//! every crate takes the workspace's lint table and every crate's
//! `clippy.toml` keeps the root's rules. The house rules themselves are
//! clippy's: the print macros, `dbg!`, `unwrap` and `expect` outside tests
//! (the manifests), and in `clippy.toml`, for every crate, the clock, sleeps
//! (tests poll with `common::wait_until`), one judge of words (no
//! `Dictionary::is_word` or `Scoring::points` outside the game) and no
//! preset's name outside the command line and the rules; the judge's and
//! the engine's I/O. A module that may break one says so where it stands
//! with `#[expect(clippy::..., reason = "...")]`. Which crate may use which
//! is Cargo's to enforce: a crate cannot name what it does not depend on.

use crate::common;

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
fn the_design_classes_are_at_the_top_of_the_game_crate() {
    let src = root().join("crates").join("boggle-game").join("src");
    let top: Vec<String> = rust_files(&src)
        .iter()
        .filter(|p| p.parent() == Some(src.as_path()))
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

/// A manifest of the workspace: the root's (`""`) or a crate's under `crates/`.
fn manifest(name: &str) -> String {
    let path = if name.is_empty() {
        root().join("Cargo.toml")
    } else {
        root().join("crates").join(name).join("Cargo.toml")
    };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn unsafe_code_is_forbidden_by_lint_outside_the_engine() {
    let root_manifest = manifest("");
    assert!(
        root_manifest.contains("[workspace.lints.rust]\nunsafe_code = \"forbid\""),
        "the workspace forbids unsafe code"
    );
    assert!(root_manifest.contains("undocumented_unsafe_blocks = \"deny\""));
    let mut names: Vec<String> = std::fs::read_dir(root().join("crates"))
        .expect("crates/ is readable")
        .map(|entry| entry.expect("a directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name != "boggle-engine")
        .collect();
    assert!(names.len() >= 6, "the crates are listed: {names:?}");
    names.push(String::new());
    for name in &names {
        assert!(
            manifest(name).contains("[lints]\nworkspace = true"),
            "{name:?} takes the workspace's lints (unsafe code forbidden)"
        );
    }
    let engine = manifest("boggle-engine");
    assert!(
        engine.contains("unsafe_code = \"allow\"")
            && engine.contains("undocumented_unsafe_blocks = \"deny\""),
        "the engine allows unsafe code and denies undocumented unsafe blocks"
    );
}

/// The longest a source file may be: past it, a reader loses the thread.
const MAX_LINES: usize = 1_000;

#[test]
fn no_source_file_is_over_a_thousand_lines() {
    let long: Vec<String> = all_sources()
        .into_iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(&path)
                .unwrap_or_default()
                .lines()
                .count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", relative(&path)))
        })
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}

/// A crate's modules and the modules each one imports from (`crate::a::b`
/// and `super::x` paths outside comments and test modules), by module path.
/// A module's use of its own ancestors (its namespace) is not counted.
fn imports(src: &Path) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let module_of = |path: &Path| -> String {
        let relative = path.strip_prefix(src).unwrap_or(path).with_extension("");
        let mut parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(
            parts.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            parts.pop();
        }
        parts.join("::")
    };
    let files = rust_files(src);
    let modules: std::collections::BTreeSet<String> = files.iter().map(|p| module_of(p)).collect();
    let mut graph = std::collections::BTreeMap::new();
    for path in &files {
        let module = module_of(path);
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let code: String = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut used = std::collections::BTreeSet::new();
        let mut paths: Vec<Vec<String>> = Vec::new();
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent(&module))] {
            for (at, _) in code.match_indices(prefix) {
                let rest = &code[at + prefix.len()..];
                if let Some(group) = rest.strip_prefix('{') {
                    // `use crate::{a::b, c}`: each item of the group.
                    let end = group.find('}').unwrap_or(group.len());
                    for item in group[..end].split(',') {
                        paths.push([base.clone(), segments(item)].concat());
                    }
                } else {
                    paths.push([base.clone(), segments(rest)].concat());
                }
            }
        }
        for path in paths {
            // The longest prefix of the path that is a module of this crate.
            let target = (1..=path.len())
                .rev()
                .map(|n| path[..n].join("::"))
                .find(|candidate| modules.contains(candidate));
            if let Some(target) = target {
                let is_ancestor = module == target || module.starts_with(&format!("{target}::"));
                if !is_ancestor && !target.is_empty() {
                    used.insert(target);
                }
            }
        }
        graph.insert(module, used);
    }
    graph
}

/// The path segments at the start of `text` (`a::b::C` gives a, b, C).
fn segments(text: &str) -> Vec<String> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    text[..end]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// The parent of a module path, as segments.
fn parent(module: &str) -> Vec<String> {
    let mut parts: Vec<String> = module.split("::").map(str::to_string).collect();
    parts.pop();
    parts
}

/// A cycle in `graph`, if it has one, as the modules on it.
fn find_cycle(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            return Some(path[at..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_has_an_import_cycle() {
    let cycles: Vec<String> = source_dirs()
        .iter()
        .filter_map(|src| {
            let cycle = find_cycle(&imports(src))?;
            Some(format!("{}: {}", relative(src), cycle.join(" -> ")))
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "modules that import each other in a circle: {cycles:?}"
    );
}

#[test]
fn nothing_below_the_command_line_imports_from_it() {
    let graph = imports(&root().join("src"));
    let upward: Vec<String> = graph
        .iter()
        .filter(|(module, _)| {
            *module != "cli" && !module.starts_with("cli::") && !module.is_empty()
        })
        .filter(|(_, used)| used.iter().any(|u| u == "cli" || u.starts_with("cli::")))
        .map(|(module, _)| module.clone())
        .collect();
    assert!(upward.is_empty(), "modules importing from cli: {upward:?}");
}

/// Every crate `package` builds on for itself (normal dependencies,
/// transitively), as `cargo tree` lists them.
fn crates_under(package: &str) -> Vec<String> {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--edges", "normal", "--prefix", "none"])
        .args(["--format", "{p}", "--package", package])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    common::assert_clean(&output, &format!("cargo tree -p {package}"));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Checks that `package` reaches none of `banned`, however indirectly.
fn assert_reaches_none(package: &str, banned: &[&str]) {
    let reached = crates_under(package);
    let found: Vec<&&str> = banned
        .iter()
        .filter(|b| reached.iter().any(|r| r == *b))
        .collect();
    assert!(found.is_empty(), "{package} builds on {found:?}");
}

/// Checks that `package` reaches each of `expected` (so a listing that
/// came back empty cannot pass the checks of what it must not reach).
fn assert_reaches_all(package: &str, expected: &[&str]) {
    let reached = crates_under(package);
    let missing: Vec<&&str> = expected
        .iter()
        .filter(|e| !reached.iter().any(|r| r == *e))
        .collect();
    assert!(
        missing.is_empty(),
        "{package} does not build on {missing:?}"
    );
}

#[test]
fn each_layer_builds_on_what_it_should_and_nothing_more() {
    let front = ["clap", "ratatui", "crossterm"];
    let server = ["tokio", "axum", "serde", "serde_json"];
    // What serves HTTP and WebSockets and keeps the day's results: the
    // server's alone, never what a client or the protocol links.
    let web = [
        "axum",
        "hyper",
        "hyper-util",
        "tower",
        "tower-service",
        "tokio-tungstenite",
        "tungstenite",
        "rusqlite",
        "libsqlite3-sys",
    ];
    let upper = [
        "boggle",
        "boggle-best",
        "boggle-client",
        "boggle-files",
        "boggle-game",
        "boggle-meaning",
        "boggle-protocol",
        "boggle-net",
        "boggle-prove",
    ];
    let banned = |groups: &[&[&'static str]]| groups.concat();
    // The crates of `upper` but `these`.
    let upper_but = |these: &[&str]| -> Vec<&'static str> {
        upper
            .iter()
            .copied()
            .filter(|c| !these.contains(c))
            .collect()
    };
    // The listing works: the program builds on every layer and on clap, the
    // server on the protocol and axum, the protocol on serde and tokio.
    assert_reaches_all(
        "boggle",
        &banned(&[&upper_but(&["boggle"]), &["boggle-engine", "clap"]]),
    );
    // Both terminal clients' link, line mode and seat file: the protocol
    // over tokio, never the server's crate nor what serves the web.
    assert_reaches_all(
        "boggle-client",
        &["boggle-protocol", "boggle-files", "boggle-game", "tokio"],
    );
    assert_reaches_none(
        "boggle-client",
        &banned(&[
            &front,
            &web,
            &upper_but(&[
                "boggle-client",
                "boggle-files",
                "boggle-game",
                "boggle-protocol",
            ]),
        ]),
    );
    assert_reaches_all(
        "boggle-net",
        &["boggle-protocol", "boggle-game", "boggle-meaning", "axum"],
    );
    assert_reaches_all("boggle-protocol", &["serde", "tokio"]);
    assert_reaches_none("boggle-engine", &banned(&[&front, &server, &upper]));
    assert_reaches_none(
        "boggle-prove",
        &banned(&[&front, &["tokio", "axum"], &upper_but(&["boggle-prove"])]),
    );
    // The best-board search: the engine and the game's rules, dice and
    // seeded generator; no command line, no terminal, no server.
    assert_reaches_none(
        "boggle-best",
        &banned(&[
            &front,
            &web,
            &["tokio"],
            &upper_but(&["boggle-best", "boggle-files", "boggle-game"]),
        ]),
    );
    assert_reaches_none(
        "boggle-game",
        &banned(&[&front, &server, &upper_but(&["boggle-game"])]),
    );
    assert_reaches_none(
        "boggle-protocol",
        &banned(&[
            &front,
            &web,
            &["boggle-engine"],
            &upper_but(&["boggle-protocol"]),
        ]),
    );
    assert_reaches_none(
        "boggle-net",
        &banned(&[
            &front,
            &upper_but(&[
                "boggle-net",
                "boggle-game",
                "boggle-meaning",
                "boggle-protocol",
            ]),
        ]),
    );
    // Below every crate that uses them, reaching nothing above: the
    // program's own files, and what a word means.
    for bottom in ["boggle-files", "boggle-meaning"] {
        let above = banned(&[&front, &server, &web, &upper, &["boggle-engine"]]);
        let others: Vec<&str> = above.into_iter().filter(|c| *c != bottom).collect();
        assert_reaches_none(bottom, &others);
    }
}

/// The full-screen client speaks the protocol through `boggle_protocol`
/// alone: nothing under `src/net/` names the server's crate, so the
/// client's code cannot lean on the server's (Cargo cannot check this: the
/// program as a whole depends on the server for `boggle serve`; the rest of
/// the client, `boggle-client`, is held apart by its edges above).
#[test]
fn the_terminal_client_does_not_name_the_server_crate() {
    let found = rust_files(&root().join("src/net"))
        .into_iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            text.lines()
                .enumerate()
                .filter(|(_, line)| line.contains("boggle_net"))
                .map(|(at, line)| format!("{}:{}: {}", relative(&path), at + 1, line.trim()))
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>();
    assert!(found.is_empty(), "the client names boggle_net: {found:#?}");
}

/// The entries of a `clippy.toml` list setting (`disallowed-methods`,
/// `disallowed-types`): each `path = "..."`, in order.
fn disallowed(text: &str, setting: &str) -> Vec<String> {
    let Some(after) = text.split(&format!("{setting} = [")).nth(1) else {
        return Vec::new();
    };
    let list = after.split("\n]").next().unwrap_or_default();
    list.lines()
        .filter_map(|line| line.split("path = \"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .map(String::from)
        .collect()
}

/// Clippy reads the nearest `clippy.toml` only, so a crate with its own
/// would silently drop the root's house rules (the clock, sleeps, one judge,
/// no preset's name): each repeats the root's plain settings and every rule
/// of the root that can name something the crate reaches, and keeps the
/// clocks (and the engine and the game, files) it refuses for itself.
#[test]
fn each_crates_clippy_settings_keep_the_roots_and_its_own_rules() {
    let settings = |text: &str| -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .take_while(|line| !line.starts_with("disallowed"))
            .map(String::from)
            .collect()
    };
    let read = |path: PathBuf| {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let root_text = read(root().join("clippy.toml"));
    let roots = settings(&root_text);
    assert!(!roots.is_empty(), "the root clippy.toml has settings");
    let root_rules = disallowed(&root_text, "disallowed-methods");
    for rule in [
        "std::time::Instant::now",
        "std::thread::sleep",
        "tokio::time::sleep",
        "boggle_game::dictionary::Dictionary::is_word",
        "boggle_engine::rules::Scoring::points",
    ] {
        assert!(
            root_rules.iter().any(|r| r == rule),
            "the root refuses {rule}"
        );
    }
    // The engine and the protocol reach no boggle-game; the engine's own
    // search scores lengths, and the game is the judge.
    let own: [(&str, &[&str]); 3] = [
        ("boggle-engine", &["std::fs::read", "std::io::stdin"]),
        ("boggle-game", &["std::fs::read", "std::io::stdin"]),
        ("boggle-protocol", &["std::fs::read"]),
    ];
    for (krate, its_own) in own {
        let text = read(root().join("crates").join(krate).join("clippy.toml"));
        assert_eq!(
            settings(&text),
            roots,
            "{krate}'s clippy.toml repeats the root's settings"
        );
        let rules = disallowed(&text, "disallowed-methods");
        let kept = root_rules
            .iter()
            .filter(|r| !r.starts_with("boggle_"))
            .map(String::as_str)
            .chain(its_own.iter().copied());
        for rule in kept {
            if rule == "tokio::time::Instant::now" && krate != "boggle-protocol" {
                continue;
            }
            assert!(
                rules.iter().any(|r| r == rule),
                "{krate}'s clippy.toml refuses {rule}"
            );
        }
    }
    assert_eq!(
        disallowed(&root_text, "disallowed-types"),
        ["boggle_game::rules::Preset"],
        "the root refuses a preset's name outside the command line and the rules"
    );
}
