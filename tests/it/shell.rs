//! Every shell script in the repository (`scripts/`, `deploy/`, `.ci/run`:
//! each file whose first line runs `sh` or `bash`) passes shellcheck at its
//! strictest (every note and style hint). CI runs some of them as root, so a
//! quoting slip or an unchecked failure there costs more than a lint. Where
//! shellcheck is missing the test says it cannot run (under `CI=true` it
//! fails: `.ci/run` installs Debian's shellcheck).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;
use crate::common::assert_contains;

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
        common::cannot_run("no shellcheck (apt-get install shellcheck)");
        return;
    }
    let out = Command::new("shellcheck")
        .args(["--severity=style", "--format=gcc"])
        .args(&scripts)
        .current_dir(root)
        .output()
        .expect("shellcheck runs");
    common::assert_clean(&out, "shellcheck");
}

/// A folder of links to the few programs `scripts/test-tools.sh` runs, and a
/// `cargo` that answers for rustfmt and clippy and installs a stand-in
/// cargo-machete where `--root` says, so the script can be run on a machine
/// with nothing else: no npm, no browser, no shellcheck, no caddy.
fn bare_path(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin folder");
    for tool in ["bash", "dirname", "grep", "mkdir", "cat", "chmod"] {
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{tool} is on this machine"));
        std::os::unix::fs::symlink(found, bin.join(tool)).expect("a link");
    }
    let cargo = bin.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/bash\n\
         if [ \"$1\" = install ]; then\n\
         \twhile [ \"$1\" != --root ]; do shift; done\n\
         \tmkdir -p \"$2/bin\"\n\
         \tprintf '#!/bin/bash\\necho 0.9.2\\n' >\"$2/bin/cargo-machete\"\n\
         \tchmod +x \"$2/bin/cargo-machete\"\n\
         \techo \"cargo install into $2\"\n\
         fi\n",
    )
    .expect("the stand-in cargo");
    let mut perms = std::fs::metadata(&cargo).expect("cargo").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&cargo, perms).expect("cargo made runnable");
    bin
}

#[test]
fn the_test_tools_install_into_the_project_and_name_each_system_package_missing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("scripts")).expect("scripts folder");
    std::fs::create_dir_all(project.join("tests/web")).expect("tests/web folder");
    std::fs::copy(
        root.join("scripts/test-tools.sh"),
        project.join("scripts/test-tools.sh"),
    )
    .expect("the script copied");
    let bin = bare_path(dir.path());
    let run = || {
        Command::new(bin.join("bash"))
            .arg(project.join("scripts/test-tools.sh"))
            .env_clear()
            .env("PATH", &bin)
            .output()
            .expect("the script runs")
    };
    let first = run();
    let said = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "exit {:?}: {said}", first.status);
    assert_contains(&said, "installing cargo-machete 0.9.2 into .tools/");
    assert!(project.join(".tools/bin/cargo-machete").is_file());
    for line in [
        "no npm: the page's type check and accessibility checks will be skipped (apt-get install npm)",
        "no chromium: the tests that need it will be skipped (apt-get install chromium)",
        "no chromedriver: the tests that need it will be skipped (apt-get install chromium-driver)",
        "no shellcheck: the tests that need it will be skipped (apt-get install shellcheck)",
        "no systemd-analyze: the tests that need it will be skipped (apt-get install systemd)",
        "no caddy: the tests that need it will be skipped (apt-get install caddy)",
        "no script: the tests that need it will be skipped (apt-get install util-linux)",
    ] {
        assert!(
            said.contains(&format!("test-tools: {line}\n")),
            "{line} in {said}"
        );
    }
    // The second run reuses what the first installed.
    let second = run();
    let again = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{again}");
    assert!(!again.contains("installing"), "{again}");
}
