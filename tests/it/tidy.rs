//! Tidy checks on what Cargo cannot check: the layout a reader should find
//! (the design's classes at the top of `boggle-game`), a `//!` header on every
//! module of every crate, the lints that forbid `unsafe` outside the engine
//! and make every unsafe block there say why it is sound, no import cycle
//! inside a crate, nothing below `cli` importing from it, and which crates
//! each layer may reach (`cargo tree`, transitively), and the invariants of
//! ARCHITECTURE.md that a reading of the sources can check and clippy
//! cannot: clippy's `disallowed_methods` is set per crate, so a rule for
//! some modules of a crate stays a scan (no clock in the console modes, the
//! full screens or the server's rooms, no I/O in the judge, one judge, no
//! branch on a preset's name, no test sleeping in hope). Each scan reads
//! whole files but their `#[cfg(test)]` items. Clippy refuses the rest, set
//! in the manifests and in each crate's `clippy.toml`: the print macros,
//! `dbg!`, `unwrap` and `expect` outside tests, and the clock (and, in the
//! engine and the protocol, files) in the engine, the game and the
//! protocol. Which crate may use which is Cargo's to enforce: a crate
//! cannot name what it does not depend on.

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
    for name in [
        "",
        "boggle-best",
        "boggle-game",
        "boggle-protocol",
        "boggle-net",
        "boggle-prove",
    ] {
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
    assert!(
        output.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
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
        "boggle-game",
        "boggle-play",
        "boggle-protocol",
        "boggle-net",
        "boggle-prove",
    ];
    let banned = |groups: &[&[&'static str]]| groups.concat();
    // The listing works: the program builds on every layer and on clap, the
    // server on the protocol and axum, the protocol on serde and tokio.
    assert_reaches_all(
        "boggle",
        &[
            "boggle-best",
            "boggle-game",
            "boggle-protocol",
            "boggle-net",
            "boggle-prove",
            "boggle-play",
            "boggle-engine",
            "clap",
        ],
    );
    // What the binary plays through in process: no command line, no full
    // screen, no server (its line client, behind the `net` feature, speaks
    // the protocol over tokio).
    assert_reaches_all("boggle-play", &["boggle-game", "boggle-engine"]);
    assert_reaches_none(
        "boggle-play",
        &banned(&[
            &front,
            &web,
            &["boggle", "boggle-best", "boggle-net", "boggle-prove"],
        ]),
    );
    assert_reaches_all("boggle-net", &["boggle-protocol", "boggle-game", "axum"]);
    assert_reaches_all("boggle-protocol", &["serde", "tokio"]);
    assert_reaches_none("boggle-engine", &banned(&[&front, &server, &upper]));
    assert_reaches_none(
        "boggle-prove",
        &banned(&[
            &front,
            &["tokio", "axum"],
            &[
                "boggle",
                "boggle-best",
                "boggle-game",
                "boggle-play",
                "boggle-protocol",
                "boggle-net",
            ],
        ]),
    );
    // The best-board search: the engine and the game's rules, dice and
    // seeded generator; no command line, no terminal, no server.
    assert_reaches_none(
        "boggle-best",
        &banned(&[
            &front,
            &web,
            &["tokio"],
            &[
                "boggle",
                "boggle-play",
                "boggle-protocol",
                "boggle-net",
                "boggle-prove",
            ],
        ]),
    );
    assert_reaches_none(
        "boggle-game",
        &banned(&[
            &front,
            &server,
            &[
                "boggle",
                "boggle-best",
                "boggle-play",
                "boggle-protocol",
                "boggle-net",
                "boggle-prove",
            ],
        ]),
    );
    assert_reaches_none(
        "boggle-protocol",
        &banned(&[
            &front,
            &web,
            &[
                "boggle",
                "boggle-best",
                "boggle-engine",
                "boggle-game",
                "boggle-play",
                "boggle-net",
                "boggle-prove",
            ],
        ]),
    );
    assert_reaches_none(
        "boggle-net",
        &banned(&[
            &front,
            &["boggle", "boggle-best", "boggle-play", "boggle-prove"],
        ]),
    );
}

/// The terminal client speaks the protocol through `boggle_protocol` alone:
/// nothing under `src/net/` or `boggle-play`'s `net/` names the server's crate, so the client's code
/// cannot lean on the server's (Cargo cannot check this: the program as a
/// whole depends on the server for `boggle serve`).
#[test]
fn the_terminal_client_does_not_name_the_server_crate() {
    let mut files = rust_files(&root().join("src/net"));
    files.extend(rust_files(&root().join("crates/boggle-play/src/net")));
    let found = files
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

/// The lines of `path` a reader of the shipped program would read: the
/// whole file but a `tests.rs` file, each `#[cfg(test)]` item (a `mod x;`
/// line, or a block up to its closing brace), and comments. Each line with
/// its 1-based number.
fn shipped_lines(path: &Path) -> Vec<(usize, String)> {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return Vec::new();
    }
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut shipped = Vec::new();
    // Inside a test item: the braces still open (0 before its first line).
    let mut test_item: Option<usize> = None;
    for (at, line) in text.lines().enumerate() {
        if let Some(depth) = test_item {
            let opened = depth + line.matches('{').count();
            let closed = line.matches('}').count();
            let ended = if depth == 0 && opened == 0 {
                // An item without a block (`mod tests;`, `use ...;`) ends with its line.
                line.trim_end().ends_with(';')
            } else {
                closed >= opened
            };
            test_item = if ended { None } else { Some(opened - closed) };
            continue;
        }
        if line.trim() == "#[cfg(test)]" {
            test_item = Some(0);
        } else if !line.trim_start().starts_with("//") {
            shipped.push((at + 1, line.to_string()));
        }
    }
    shipped
}

/// Every shipped line under `files` holding one of `needles`, as `path:line: text`.
fn shipped_uses(files: &[PathBuf], needles: &[&str]) -> Vec<String> {
    files
        .iter()
        .flat_map(|path| {
            shipped_lines(path)
                .into_iter()
                .filter(|(_, line)| needles.iter().any(|n| line.contains(n)))
                .map(move |(at, line)| format!("{}:{at}: {}", relative(path), line.trim()))
        })
        .collect()
}

/// ARCHITECTURE.md, "No game module reads the real clock": the console
/// modes, the full screens (but `tui/terminal.rs`, which makes the ticks)
/// and the server's rooms take time from a `Keyboard`, as ticks, or as an
/// argument. (The design's classes are held to it by clippy: their crate's
/// `clippy.toml` disallows the clocks.)
#[test]
fn no_game_module_reads_the_real_clock() {
    let mut files = Vec::new();
    for mode in ["console.rs", "versus.rs", "boggleish.rs"] {
        files.push(root().join("crates/boggle-play/src/modes").join(mode));
    }
    files.extend(
        rust_files(&root().join("src/tui"))
            .into_iter()
            .filter(|path| !path.ends_with("tui/terminal.rs")),
    );
    // The server's rooms are handed the time of every event; only the
    // server around them (its timers, its connections) reads the clock.
    files.extend(rust_files(&root().join("crates/boggle-net/src/room")));
    let found = shipped_uses(&files, &["Instant::now", "SystemTime"]);
    assert!(
        found.is_empty(),
        "game modules reading the clock: {found:#?}"
    );
}

/// ARCHITECTURE.md, "`Game`, `WordFind`, the engine and `Rules` do no I/O".
/// (The engine is held to it by clippy: its `clippy.toml` disallows the
/// files, the standard streams, sockets and the environment.)
#[test]
fn the_judge_does_no_io() {
    let mut files = Vec::new();
    for name in ["game.rs", "word_find.rs", "rules.rs"] {
        files.push(root().join("crates/boggle-game/src").join(name));
    }
    let io = [
        "std::fs", "fs::", "File::", "std::io", "io::", "std::net", "std::env", "stdin", "stdout",
    ];
    let found = shipped_uses(&files, &io);
    assert!(found.is_empty(), "I/O in the judge: {found:#?}");
}

/// ARCHITECTURE.md, "One judge": in the program (`src/`), the modes
/// (`boggle-play`) and the server, no code looks a word up to decide whether it counts or
/// scores a length; the full screen's scoring table only shows the rules'
/// points. (The engine and the prover are searches, not judges of a
/// player's word.)
#[test]
fn only_the_game_judges_words() {
    let files: Vec<PathBuf> = [
        root().join("src"),
        root().join("crates/boggle-play/src"),
        root().join("crates/boggle-net/src"),
    ]
    .iter()
    .flat_map(|dir| rust_files(dir))
    .collect();
    let found: Vec<String> = shipped_uses(&files, &[".is_word(", ".scoring.points("])
        .into_iter()
        .filter(|hit| {
            !hit.starts_with("src/tui/ui/mod.rs:") || !hit.contains("format!(\"{n}{plus}")
        })
        .collect();
    assert!(found.is_empty(), "words judged outside Game: {found:#?}");
}

/// ARCHITECTURE.md, "behaviour follows rule fields, never a preset's name":
/// outside `rules.rs` (which builds a preset's fields) and the command line
/// (which names presets), no code compares or matches a `Preset`.
#[test]
fn no_code_branches_on_a_preset_name() {
    let files: Vec<PathBuf> = all_sources()
        .into_iter()
        .filter(|path| !path.ends_with("boggle-game/src/rules.rs"))
        .filter(|path| !path.starts_with(root().join("src/cli")))
        .collect();
    let found: Vec<String> = shipped_uses(&files, &["== Preset::", "!= Preset::", "Preset::"])
        .into_iter()
        .filter(|hit| {
            hit.contains("== Preset::")
                || hit.contains("!= Preset::")
                || hit.contains("Preset::") && hit.contains("=>")
        })
        .collect();
    assert!(
        found.is_empty(),
        "code that branches on a preset: {found:#?}"
    );
}

/// The longest pause a polling loop may take between looks.
const MAX_POLL_MS: u64 = 100;

/// The one pause in the tests that is not a poll: the records test kills a
/// writer at moments it chooses, and the delay is that choice.
const DELIBERATE_PAUSES: &[&str] =
    &["tests/it/tui_records.rs: std::thread::sleep(Duration::from_millis(delay_ms));"];

/// ARCHITECTURE.md, "No test sleeps to wait": every pause in test code is a
/// short pause inside a loop that polls for a condition (against a deadline),
/// or one of [`DELIBERATE_PAUSES`]. A sleep that hopes something happened
/// meanwhile is neither.
#[test]
fn no_test_sleeps_in_hope() {
    // Not this file: it names `sleep(` in its own checks.
    let mut files: Vec<PathBuf> = rust_files(&root().join("tests"))
        .into_iter()
        .filter(|path| !path.ends_with("tests/it/tidy.rs"))
        .collect();
    for dir in source_dirs() {
        files.extend(rust_files(&dir));
    }
    let mut hoping = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let in_tests = path.starts_with(root().join("tests"));
        let test_from = if in_tests || path.ends_with("tests.rs") {
            0
        } else {
            match lines.iter().position(|l| l.trim() == "#[cfg(test)]") {
                Some(at) => at,
                None => continue,
            }
        };
        for (at, line) in lines.iter().enumerate().skip(test_from) {
            let code = line.trim();
            if code.starts_with("//") || !code.contains("sleep(") {
                continue;
            }
            let named = format!("{}: {code}", relative(&path));
            let short = poll_ms(code).is_some_and(|ms| ms <= MAX_POLL_MS);
            if !(DELIBERATE_PAUSES.contains(&named.as_str()) || short && in_a_loop(&lines, at)) {
                hoping.push(format!("{}:{}: {code}", relative(&path), at + 1));
            }
        }
    }
    assert!(hoping.is_empty(), "sleeps that are not polls: {hoping:#?}");
}

/// The milliseconds of a `sleep(Duration::from_millis(N))` with a literal N.
fn poll_ms(code: &str) -> Option<u64> {
    let after = code.split("sleep(Duration::from_millis(").nth(1)?;
    after.split(')').next()?.trim().parse().ok()
}

/// Whether line `at` lies in a `loop`, `while` or `for` body of its function:
/// walks out through the lines that open its enclosing blocks.
fn in_a_loop(lines: &[&str], at: usize) -> bool {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut level = indent(lines[at]);
    for line in lines[..at].iter().rev() {
        let code = line.trim();
        // A lone `{` ends a condition that spans lines; the loop's keyword is above it.
        if code.is_empty() || code == "{" || indent(line) >= level {
            continue;
        }
        level = indent(line);
        let opens_loop = code.starts_with("loop") || code.ends_with("loop {");
        if opens_loop || code.starts_with("while ") || code.starts_with("for ") {
            return true;
        }
        if code.contains("fn ") {
            return false;
        }
    }
    false
}

/// The crates whose `clippy.toml` disallows the clock (and what else it
/// says), each as it must begin: clippy reads the nearest `clippy.toml`
/// only, so each repeats the root's settings, and one that drifted from
/// them, or lost its clocks, would pass clippy unseen.
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
    let roots = settings(&read(root().join("clippy.toml")));
    assert!(!roots.is_empty(), "the root clippy.toml has settings");
    for krate in ["boggle-engine", "boggle-game", "boggle-protocol"] {
        let text = read(root().join("crates").join(krate).join("clippy.toml"));
        assert_eq!(
            settings(&text),
            roots,
            "{krate}'s clippy.toml repeats the root's settings"
        );
        for clock in ["std::time::Instant::now", "std::time::SystemTime::now"] {
            assert!(
                text.contains(&format!("path = \"{clock}\"")),
                "{krate}'s clippy.toml disallows {clock}"
            );
        }
    }
}
