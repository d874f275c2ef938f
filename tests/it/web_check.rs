//! The TypeScript compiler checks the page's JavaScript, as `make
//! web-check` runs it: the modules of `crates/boggle-net/src/web/js/` in
//! strict mode with their JSDoc types (`tsconfig.json` there), against the
//! declarations generated from the protocol's types (`messages.d.ts`), so
//! an undefined name, a misspelt message field or an error code the page
//! does not handle fails the test. The compiler is `tests/web`'s, from npm
//! at the version its lock file pins; without it the test says it was
//! skipped, and under `CI=true` it fails.

use std::path::Path;
use std::process::Command;

use crate::common::cannot_run;

/// The page's modules and their compiler settings.
const PAGE: &str = "crates/boggle-net/src/web/js";

#[test]
fn the_typescript_compiler_finds_no_error_in_the_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let settings = std::fs::read_to_string(root.join(PAGE).join("tsconfig.json"))
        .expect("the page's tsconfig.json");
    for option in [
        r#""checkJs": true"#,
        r#""strict": true"#,
        r#""noEmit": true"#,
    ] {
        assert!(settings.contains(option), "tsconfig.json sets {option}");
    }
    let tsc = root.join("tests/web/node_modules/.bin/tsc");
    if !tsc.is_file() {
        return cannot_run(&format!(
            "no TypeScript compiler at {}: make tools installs it where npm exists (apt-get install npm)",
            tsc.display()
        ));
    }
    let out = Command::new(&tsc)
        .args(["-p", PAGE])
        .current_dir(root)
        .output()
        .expect("tsc runs");
    crate::common::assert_clean(&out, "the TypeScript compiler found errors in the page");
}
