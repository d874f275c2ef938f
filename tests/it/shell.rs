//! Every shell script in the repository (`scripts/`, `deploy/`, `.ci/run`:
//! each file whose first line runs `sh` or `bash`) passes shellcheck at its
//! strictest (every note and style hint). CI runs some of them as root, so a
//! quoting slip or an unchecked failure there costs more than a lint. Where
//! shellcheck is missing the test says it cannot run (under `CI=true` it
//! fails: `.ci/run` installs Debian's shellcheck).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

/// The shell scripts under the repository's `scripts/`, `deploy/` and `.ci/`.
fn shell_scripts(root: &Path) -> Vec<PathBuf> {
    let mut scripts = Vec::new();
    for dir in ["scripts", "deploy", ".ci"] {
        let entries = std::fs::read_dir(root.join(dir)).expect("the directory is there");
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let text = std::fs::read(&path).unwrap_or_default();
            let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
            let first = String::from_utf8_lossy(first);
            let shell = first.starts_with("#!")
                && ["/sh", "/bash", " sh", " bash"]
                    .iter()
                    .any(|s| first.trim_end().ends_with(s));
            if shell {
                scripts.push(path);
            }
        }
    }
    scripts.sort();
    scripts
}

#[test]
fn every_shell_script_passes_shellcheck() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scripts = shell_scripts(root);
    // The scripts CI runs are among them (the scan sees what it should).
    for known in ["scripts/slurm-check.sh", "deploy/slurm-array.sh", ".ci/run"] {
        assert!(
            scripts.contains(&root.join(known)),
            "{known} in {scripts:?}"
        );
    }
    if !common::found("shellcheck") {
        common::cannot_run("shellcheck is not installed");
        return;
    }
    let out = Command::new("shellcheck")
        .args(["--severity=style", "--format=gcc"])
        .args(&scripts)
        .current_dir(root)
        .output()
        .expect("shellcheck runs");
    assert!(
        out.status.success(),
        "shellcheck:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
