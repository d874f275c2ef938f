//! Puts the page together at build time (`src/web/bundle.rs`): its markup
//! with its style and its modules inline, the Content-Security-Policy
//! naming their hashes, and the list of the modules as written, all into
//! `OUT_DIR`, where `src/web/mod.rs` includes them. A module that cannot be
//! bundled safely (two modules declaring one name, an import of a form not
//! read, a module nothing imports) fails the build, naming it.
//!
//! Limits: it reads `src/web/` only; the modules are every `.js` file of
//! `src/web/js/`, entered at `main.js`.

#[path = "src/web/bundle.rs"]
mod bundle;

use std::fmt;
use std::path::{Path, PathBuf};

/// Why the build stopped, printed as it is.
struct Stop(String);

impl fmt::Debug for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: fmt::Display> From<E> for Stop {
    fn from(e: E) -> Stop {
        Stop(e.to_string())
    }
}

fn main() -> Result<(), Stop> {
    let web = Path::new("src/web");
    for watched in [
        "src/web/page.html",
        "src/web/app.css",
        "src/web/js",
        "src/web/bundle.rs",
    ] {
        println!("cargo::rerun-if-changed={watched}");
    }
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|e| Stop(format!("{}: {e}", path.display())))
    };
    let page = read(&web.join("page.html"))?;
    let style = read(&web.join("app.css"))?;
    let js = web.join("js");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&js)
        .map_err(|e| Stop(format!("{}: {e}", js.display())))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "js"))
        .collect();
    paths.sort();
    let mut modules = Vec::new();
    for path in &paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        modules.push((name, read(path)?, path.canonicalize()?));
    }
    let listed: Vec<(&str, &str)> = modules
        .iter()
        .map(|(name, text, _)| (name.as_str(), text.as_str()))
        .collect();
    let made = bundle::bundle(&page, &style, &listed, "main.js")
        .map_err(|e| Stop(format!("the page's script cannot be bundled: {e}")))?;
    // The modules as written, in the order the script holds them.
    let mut list = String::from("&[\n");
    for name in &made.order {
        if let Some((_, _, path)) = modules.iter().find(|(n, _, _)| n == name) {
            list.push_str(&format!(
                "    ({name:?}, include_str!({:?})),\n",
                path.display()
            ));
        }
    }
    list.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out.join("page.html"), &made.page)?;
    std::fs::write(out.join("script.js"), &made.script)?;
    std::fs::write(out.join("csp.txt"), &made.csp)?;
    std::fs::write(out.join("modules.rs"), list)?;
    Ok(())
}
