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
//! is Cargo's to enforce: a crate cannot name what it does not depend on
//! (the terminal client builds without the server's crate: the Makefile's
//! `--features net` lint). Where tidy reads a source file it reads syn's
//! syntax tree (inner doc attributes, `use` trees and paths, `#[cfg(test)]`
//! items left out), never text; the length check alone counts lines.

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

/// A source file's syntax tree: syn's, the parser derive macros use, so a
/// check sees items, attributes and paths as the compiler does, never text.
fn syntax(path: &Path) -> syn::File {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", relative(path)))
}

#[test]
fn every_module_starts_with_a_header() {
    let missing: Vec<String> = all_sources()
        .into_iter()
        .filter(|path| {
            !syntax(path).attrs.iter().any(|attr| {
                matches!(attr.style, syn::AttrStyle::Inner(_)) && attr.path().is_ident("doc")
            })
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

type Graph = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// A crate's modules and the modules each one names (`crate::a::b`,
/// `super::x`, `self::y` paths in its items, `use` trees among them, outside
/// `#[cfg(test)]` items), by module path. A module's use of its own
/// ancestors (its namespace) is not counted.
fn imports(src: &Path) -> Graph {
    let module_of = |path: &Path| -> Vec<String> {
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
        parts
    };
    let files = rust_files(src);
    let modules: std::collections::BTreeSet<String> =
        files.iter().map(|p| module_of(p).join("::")).collect();
    let mut graph = Graph::new();
    for path in &files {
        let module = module_of(path);
        let mut names = Names {
            module: module.clone(),
            modules: &modules,
            paths: Vec::new(),
        };
        syn::visit::Visit::visit_file(&mut names, &syntax(path));
        let module = module.join("::");
        let used = names
            .paths
            .iter()
            // The longest prefix of the path that is a module of this crate.
            .filter_map(|path| {
                (1..=path.len())
                    .rev()
                    .map(|n| path[..n].join("::"))
                    .find(|candidate| modules.contains(candidate))
            })
            .filter(|target| module != *target && !module.starts_with(&format!("{target}::")))
            .collect();
        graph.insert(module, used);
    }
    graph
}

/// The crate-relative paths a file's code names, as absolute segments.
struct Names<'a> {
    /// The module being read (an inline `mod` pushes onto it).
    module: Vec<String>,
    /// The crate's modules, so that a child's name (`cli::run`) is known.
    modules: &'a std::collections::BTreeSet<String>,
    /// Every `crate::`, `super::` or `self::` path, resolved from the crate's root.
    paths: Vec<Vec<String>>,
}

impl Names<'_> {
    /// `segments` from the crate's root, if it starts at `crate`, `super`,
    /// `self` or a child module's name.
    fn resolve(&self, segments: &[String]) -> Option<Vec<String>> {
        let mut base = self.module.clone();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => base.clear(),
            Some("self" | "super") => {}
            Some(child)
                if self
                    .modules
                    .contains(&[base.clone(), vec![child.to_string()]].concat().join("::")) =>
            {
                return Some([base, rest.to_vec()].concat());
            }
            _ => return None,
        }
        if rest.first().is_some_and(|s| s != "super") {
            rest = &rest[1..];
        }
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        Some([base, rest.to_vec()].concat())
    }

    /// Keeps `segments` if they name something in the crate.
    fn note(&mut self, segments: &[String]) {
        if let Some(path) = self.resolve(segments) {
            self.paths.push(path);
        }
    }

    /// Every path a `use` tree names, each prefixed by `prefix`.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        let with = |ident: &syn::Ident| [prefix.as_slice(), &[ident.to_string()]].concat();
        match tree {
            syn::UseTree::Name(name) => self.note(&with(&name.ident)),
            syn::UseTree::Rename(rename) => self.note(&with(&rename.ident)),
            syn::UseTree::Glob(_) => self.note(prefix),
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }
}

/// Whether `attrs` holds `#[cfg(test)]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

impl<'ast> syn::visit::Visit<'ast> for Names<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Mod(item) => &item.attrs,
            syn::Item::Use(item) => &item.attrs,
            syn::Item::Fn(item) => &item.attrs,
            syn::Item::Impl(item) => &item.attrs,
            syn::Item::Const(item) => &item.attrs,
            syn::Item::Static(item) => &item.attrs,
            _ => &[],
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.module.pop();
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.note(&segments);
        syn::visit::visit_path(self, path);
    }
}

/// A cycle in `graph`, if it has one, as the modules on it.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
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

/// The reading itself: a cycle through `use` groups, `super::super` and a
/// child's name is found; what a `#[cfg(test)]` module names is not counted.
#[test]
fn a_cycle_through_any_kind_of_path_is_found_and_tests_are_left_out() {
    let dir = common::TempDir::new("tidy");
    std::fs::create_dir(dir.path().join("a")).expect("a/ can be made");
    dir.write(
        "lib.rs",
        "//! Root.\nmod a;\nmod b;\nfn f() { a::inner::g(); }\n",
    );
    dir.write("a/mod.rs", "//! A.\npub(crate) mod inner;\n");
    dir.write(
        "a/inner.rs",
        "//! Inner.\nuse super::super::b::{self as bee, X};\n",
    );
    dir.write(
        "b.rs",
        "//! B.\npub struct X;\nfn h() { crate::a::inner::g(); }\n#[cfg(test)]\nmod tests { use crate::Y; }\n",
    );
    let graph = imports(dir.path());
    assert_eq!(graph[""], ["a::inner"].map(String::from).into());
    assert_eq!(graph["b"], ["a::inner"].map(String::from).into());
    let cycle = find_cycle(&graph).expect("a::inner and b name each other");
    assert_eq!(cycle.len(), 2, "{cycle:?}");
}

#[test]
fn nothing_below_the_command_line_imports_from_it() {
    let graph = imports(&root().join("src"));
    // The program's root names the command line: a reading that found no
    // path at all could not pass.
    assert!(
        graph.get("").is_some_and(|used| used.contains("cli")),
        "main names cli: {graph:?}"
    );
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
