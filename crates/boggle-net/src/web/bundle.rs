//! The page as a browser gets it: one HTML file with its style and its
//! script inline, and the Content-Security-Policy that lets exactly those
//! two run. The build script (`build.rs`) runs it over `src/web/` and the
//! crate serves what it wrote; the crate's tests run it on made-up modules.
//!
//! Why: a first visit is one request for the page, not one for its style
//! and each of its modules. Chromium opens a new connection for each
//! request in flight that finds none idle (up to six a host), so fifteen
//! modules asked at once cost six connections.
//!
//! How it works. The script's ES modules are joined in the order a browser
//! evaluates them: depth first from the entry, each module after the
//! modules it imports, in the order it imports them (an import of a module
//! already being visited is a cycle, skipped, as the browser does). Their
//! `import` lines go, and so does the `export` before a declaration. The
//! result is one `<script type="module">`, one scope for every module, so a
//! top-level name declared in two modules is refused: in the page it would
//! be a `SyntaxError`, or one module's function silently replacing
//! another's. The style goes in a `<style>`. The policy allows each by its
//! SHA-256 (`'sha256-…'`), never by `'unsafe-inline'`.
//!
//! Limits: it reads the forms the modules are written in, not JavaScript at
//! large. Imports are one line each, `import { a, b } from "./name.js";`
//! (no `as`, no default or namespace import, no `import(`); `export` starts
//! a line and comes before `function`, `async function`, `const`, `let` or
//! `class`; a top-level declaration starts a line and declares one name.
//! Anything else is refused with its module and line, never bundled wrong.
//! A top-level name that shadows a browser global in one module shadows it
//! in all of them; the modules avoid such names (`close`, `name`, ...).

use sha2::{Digest, Sha256};

/// What cannot be bundled, with where it is.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum BundleError {
    /// Two modules declare one name at their top level.
    #[error(
        "{name} is declared at the top level of both {first} and {second}: the bundle is one scope, so rename one"
    )]
    Collision {
        /// The name both declare.
        name: String,
        /// The module bundled first.
        first: String,
        /// The module bundled second.
        second: String,
    },
    /// A line the bundler does not read safely.
    #[error("{module} line {line}: {why}: `{text}`")]
    Unsupported {
        /// The module.
        module: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        why: &'static str,
        /// The line.
        text: String,
    },
    /// A module imports one that is not among the modules.
    #[error("{module} imports {target}, which is not one of the page's modules")]
    Missing {
        /// The importing module.
        module: String,
        /// What it imports.
        target: String,
    },
    /// A module no module imports: the page would never run it.
    #[error("{0} is imported by no module from the entry: the page would never run it")]
    Unreached(String),
    /// The page's markup has no place, or two, for the style or the script.
    #[error("the page must hold {0} exactly once")]
    NoPlace(&'static str),
    /// The style or the script holds what would end its element early, or
    /// a placeholder the server fills in on the page.
    #[error("the {0} holds `{1}`, which cannot go inline")]
    Unsafe(&'static str, &'static str),
}

/// Where the page's markup takes its style.
pub(crate) const STYLE_PLACE: &str = "<style>{{STYLE}}</style>";
/// Where the page's markup takes its script.
pub(crate) const SCRIPT_PLACE: &str = r#"<script type="module">{{SCRIPT}}</script>"#;

/// The page put together.
#[derive(Debug)]
pub(crate) struct Bundle {
    /// The page's markup with its style and script inline.
    pub page: String,
    /// The script alone (inline in `page`).
    pub script: String,
    /// The modules' names, in the order the script holds them.
    pub order: Vec<String>,
    /// The Content-Security-Policy allowing exactly this style and script.
    pub csp: String,
}

/// Puts the page together: `page` (holding [`STYLE_PLACE`] and
/// [`SCRIPT_PLACE`] once each), `style`, and `modules` (name and text, the
/// entry `entry`, every one of them reached from it).
pub(crate) fn bundle(
    page: &str,
    style: &str,
    modules: &[(&str, &str)],
    entry: &str,
) -> Result<Bundle, BundleError> {
    let order = order(modules, entry)?;
    let mut script = String::new();
    let mut declared: Vec<(String, String)> = Vec::new();
    for name in &order {
        let text = text_of(modules, name).unwrap_or_default();
        script.push_str("// ");
        script.push_str(name);
        script.push('\n');
        for (i, line) in text.lines().enumerate() {
            let unsupported = |why| BundleError::Unsupported {
                module: name.clone(),
                line: i + 1,
                why,
                text: line.to_string(),
            };
            if line.starts_with("import ") {
                continue;
            }
            if line.contains("import(") {
                return Err(unsupported("a dynamic import"));
            }
            let line = match line.strip_prefix("export ") {
                Some(rest) if declares(rest).is_some() => rest,
                Some(_) => return Err(unsupported("an export of another form")),
                None => line,
            };
            if let Some(found) = declares(line) {
                let declared_name = found.map_err(unsupported)?;
                if let Some((_, first)) = declared.iter().find(|(n, _)| *n == declared_name) {
                    return Err(BundleError::Collision {
                        name: declared_name,
                        first: first.clone(),
                        second: name.clone(),
                    });
                }
                declared.push((declared_name, name.clone()));
            }
            script.push_str(line);
            script.push('\n');
        }
    }
    for (text, what) in [(style, "style"), (script.as_str(), "script")] {
        let lower = text.to_ascii_lowercase();
        for bad in ["</style", "</script", "<!--", "{{"] {
            if lower.contains(bad) && (bad != "{{" || has_placeholder(text)) {
                return Err(BundleError::Unsafe(what, bad));
            }
        }
    }
    for place in [STYLE_PLACE, SCRIPT_PLACE] {
        if page.matches(place).count() != 1 {
            return Err(BundleError::NoPlace(place));
        }
    }
    let page = page
        .replace(STYLE_PLACE, &format!("<style>{style}</style>"))
        .replace(
            SCRIPT_PLACE,
            &format!(r#"<script type="module">{script}</script>"#),
        );
    let csp = format!(
        "default-src 'none'; script-src 'self' '{}'; style-src '{}'; connect-src 'self'; \
         img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        hash_source(&script),
        hash_source(style)
    );
    Ok(Bundle {
        page,
        script,
        order,
        csp,
    })
}

/// Whether `text` holds a `{{NAME}}` the server fills in on the page.
fn has_placeholder(text: &str) -> bool {
    text.split("{{").skip(1).any(|rest| {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || *c == '_')
            .collect();
        !name.is_empty() && rest[name.len()..].starts_with("}}")
    })
}

/// The text of the module `name`.
fn text_of<'a>(modules: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    modules.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The modules in the order the browser evaluates them from `entry`.
fn order(modules: &[(&str, &str)], entry: &str) -> Result<Vec<String>, BundleError> {
    fn visit(
        modules: &[(&str, &str)],
        name: &str,
        seen: &mut Vec<String>,
        out: &mut Vec<String>,
    ) -> Result<(), BundleError> {
        if seen.iter().any(|s| s == name) {
            return Ok(());
        }
        seen.push(name.to_string());
        let text = text_of(modules, name).unwrap_or_default();
        for target in imports(name, text)? {
            if text_of(modules, &target).is_none() {
                return Err(BundleError::Missing {
                    module: name.to_string(),
                    target,
                });
            }
            visit(modules, &target, seen, out)?;
        }
        out.push(name.to_string());
        Ok(())
    }
    if text_of(modules, entry).is_none() {
        return Err(BundleError::Unreached(entry.to_string()));
    }
    let mut out = Vec::new();
    visit(modules, entry, &mut Vec::new(), &mut out)?;
    if let Some((unreached, _)) = modules.iter().find(|(n, _)| !out.iter().any(|o| o == n)) {
        return Err(BundleError::Unreached(unreached.to_string()));
    }
    Ok(out)
}

/// The modules `text` imports, in order (`./x.js` as `x.js`).
fn imports(module: &str, text: &str) -> Result<Vec<String>, BundleError> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if !line.starts_with("import") {
            continue;
        }
        let unsupported = |why| BundleError::Unsupported {
            module: module.to_string(),
            line: i + 1,
            why,
            text: line.to_string(),
        };
        let target = line
            .strip_prefix("import { ")
            .and_then(|rest| rest.split_once(" } from \"./"))
            .and_then(|(names, rest)| Some((names, rest.strip_suffix("\";")?)));
        let Some((names, target)) = target else {
            return Err(unsupported(
                "not a one-line `import { a } from \"./name.js\";`",
            ));
        };
        let plain = |n: &str| !n.is_empty() && n.chars().all(is_name_char);
        if !names.split(", ").all(plain) {
            return Err(unsupported("an import renamed or of another form"));
        }
        found.push(target.to_string());
    }
    Ok(found)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The name a top-level line declares: `None` when it declares none,
/// `Some(Err(why))` when it declares in a form not read here.
fn declares(line: &str) -> Option<Result<String, &'static str>> {
    let rest = [
        "async function ",
        "function ",
        "const ",
        "let ",
        "var ",
        "class ",
    ]
    .iter()
    .find_map(|keyword| line.strip_prefix(keyword))?;
    let rest = rest.strip_prefix("* ").unwrap_or(rest);
    let name: String = rest.chars().take_while(|c| is_name_char(*c)).collect();
    if name.is_empty() {
        return Some(Err("a top-level declaration of no plain name"));
    }
    Some(Ok(name))
}

/// The policy's source for `text`: `'sha256-BASE64'` without the quotes.
pub(crate) fn hash_source(text: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(text.as_bytes())))
}

/// Standard base64 with padding (RFC 4648 section 4), as CSP's hash
/// sources are written; a few lines rather than a crate for one digest.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<head><style>{{STYLE}}</style>\n\
        <script type=\"module\">{{SCRIPT}}</script></head><body data-x=\"{{X}}\">";

    #[test]
    fn base64_is_rfc_4648s() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded, "{plain}");
        }
        // CSP's own example: the hash of `alert('Hello, world.');`.
        assert_eq!(
            hash_source("alert('Hello, world.');"),
            "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng="
        );
    }

    #[test]
    fn modules_go_in_evaluation_order_without_imports_or_exports() {
        let modules = [
            (
                "main.js",
                "import { b } from \"./b.js\";\nimport { a } from \"./a.js\";\nb(a);\n",
            ),
            (
                "a.js",
                "import { b } from \"./b.js\";\nexport const a = 1;\nfunction inner() {}\n",
            ),
            (
                "b.js",
                "import { a } from \"./a.js\";\n/** @param {number} n */\nexport function b(n) {\n  return n;\n}\n",
            ),
        ];
        let made = bundle(PAGE, "p{}", &modules, "main.js").expect("bundles");
        // main imports b first; b imports a (whose import of b closes a cycle).
        assert_eq!(made.order, ["a.js", "b.js", "main.js"]);
        assert_eq!(
            made.script,
            "// a.js\nconst a = 1;\nfunction inner() {}\n\
             // b.js\n/** @param {number} n */\nfunction b(n) {\n  return n;\n}\n\
             // main.js\nb(a);\n"
        );
        assert!(made.page.contains("<style>p{}</style>"));
        assert!(
            made.page
                .contains(&format!("<script type=\"module\">{}</script>", made.script))
        );
        assert!(
            made.page.contains("{{X}}"),
            "the server's placeholders stay"
        );
        assert!(made.csp.contains(&format!(
            "script-src 'self' '{}'",
            hash_source(&made.script)
        )));
        assert!(
            made.csp
                .contains(&format!("style-src '{}'", hash_source("p{}")))
        );
        assert!(!made.csp.contains("unsafe"));
    }

    #[test]
    fn a_name_declared_by_two_modules_is_refused_naming_both() {
        let modules = [
            (
                "main.js",
                "import { go } from \"./a.js\";\nfunction seat() {}\ngo();\n",
            ),
            ("a.js", "let seat = 1;\nexport function go() {}\n"),
        ];
        let refused = bundle(PAGE, "", &modules, "main.js").expect_err("collides");
        assert_eq!(
            refused,
            BundleError::Collision {
                name: "seat".into(),
                first: "a.js".into(),
                second: "main.js".into(),
            }
        );
        assert_eq!(
            refused.to_string(),
            "seat is declared at the top level of both a.js and main.js: \
             the bundle is one scope, so rename one"
        );
    }

    #[test]
    fn what_it_cannot_read_safely_is_refused() {
        let refused = |main: &str| {
            let modules = [("main.js", main), ("a.js", "export const a = 1;\n")];
            bundle(PAGE, "", &modules, "main.js").expect_err(main)
        };
        for main in [
            "import { a as b } from \"./a.js\";\n",
            "import * as a from \"./a.js\";\n",
            "import {\n  a,\n} from \"./a.js\";\n",
            "import { a } from \"./a.js\";\nexport { a };\n",
            "import { a } from \"./a.js\";\nexport default a;\n",
            "import { a } from \"./a.js\";\nconst { b } = a;\n",
            "import { a } from \"./a.js\";\nvoid import(\"./a.js\");\n",
        ] {
            assert!(
                matches!(refused(main), BundleError::Unsupported { .. }),
                "{main}"
            );
        }
        assert_eq!(
            refused("import { a } from \"./c.js\";\n"),
            BundleError::Missing {
                module: "main.js".into(),
                target: "c.js".into()
            }
        );
        assert_eq!(
            refused("const x = 1;\n"),
            BundleError::Unreached("a.js".into())
        );
        assert_eq!(
            refused("import { a } from \"./a.js\";\nconst s = \"</script>\";\n"),
            BundleError::Unsafe("script", "</script")
        );
        assert_eq!(
            refused("import { a } from \"./a.js\";\nconst s = \"{{X}}\";\n"),
            BundleError::Unsafe("script", "{{")
        );
        let modules = [("main.js", "/** @type {{ a: number }} */\nlet o;\n")];
        assert!(
            bundle(PAGE, "", &modules, "main.js").is_ok(),
            "a JSDoc type"
        );
        assert_eq!(
            bundle("<style>{{STYLE}}</style>", "", &modules, "main.js").expect_err("no script"),
            BundleError::NoPlace(SCRIPT_PLACE)
        );
    }

    /// The page's own modules bundle (the build did it too), each once.
    #[test]
    fn the_pages_modules_bundle_each_once_entry_last() {
        let made = bundle(
            include_str!("page.html"),
            include_str!("app.css"),
            super::super::MODULES,
            "main.js",
        )
        .expect("the page bundles");
        assert_eq!(made.order.len(), super::super::MODULES.len());
        assert_eq!(made.order.last().map(String::as_str), Some("main.js"));
        assert_eq!(made.script, super::super::SCRIPT);
        assert_eq!(made.csp, super::super::CSP);
        // A top-level name is every module's: none may hide a global of the
        // browser's that another module means (the ones a page reaches bare).
        let globals = [
            "addEventListener",
            "alert",
            "blur",
            "close",
            "closed",
            "confirm",
            "crypto",
            "document",
            "event",
            "fetch",
            "find",
            "focus",
            "frames",
            "history",
            "length",
            "localStorage",
            "location",
            "name",
            "navigator",
            "open",
            "opener",
            "origin",
            "parent",
            "performance",
            "postMessage",
            "print",
            "prompt",
            "screen",
            "scroll",
            "self",
            "sessionStorage",
            "setInterval",
            "setTimeout",
            "status",
            "stop",
            "top",
            "window",
        ];
        let shadowing: Vec<String> = made
            .script
            .lines()
            .filter_map(declares)
            .filter_map(Result::ok)
            .filter(|name| globals.contains(&name.as_str()))
            .collect();
        assert!(shadowing.is_empty(), "{shadowing:?} hide the browser's own");
    }
}
