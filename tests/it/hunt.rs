//! `boggle best --hunt`: a hunt killed with SIGKILL and resumed loses no
//! board it found and writes none twice (its results are the ones an
//! uninterrupted hunt of as many rounds writes); each task has its own seed
//! stream, from `--task` or the scheduler's variable; `--merge` gives the best
//! boards of every task; a hunt refuses a directory made under other rules.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{Killed, TempDir, assert_contains, boggle_in, exit_code, wait_until};
#[cfg(unix)]
use crate::common::{Plant, plant};

/// A 3x3 hunt under classic rules with the built-in list: rounds of 20,000
/// boards, one thread, so every round is repeatable.
const HUNT: &[&str] = &[
    "best",
    "--rules",
    "classic",
    "--size",
    "3x3",
    "--threads",
    "1",
    "--above",
    "400",
    "--round",
    "20000",
];

/// `--merge` under the rules [`HUNT`] hunts by.
const MERGE: &[&str] = &["best", "--rules", "classic", "--size", "3x3", "--merge"];

fn run(command: &mut Command) -> Output {
    let output = command.output().expect("the binary runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A hunt in `dir/sub` until it has finished `rounds` rounds.
fn hunt(dir: &Path, sub: &str, rounds: u64, extra: &[&str]) -> Output {
    let rounds = rounds.to_string();
    let args = [HUNT, &["--hunt", sub, "--rounds", &rounds], extra].concat();
    run(&mut boggle_in(dir, &args))
}

/// The results file's lines, each checked to be `SCORE LETTERS` above 400.
fn results(path: &Path) -> Vec<(u32, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| {
            let (score, board) = line.split_once(' ').expect("SCORE LETTERS");
            let score: u32 = score.parse().expect("a score");
            assert!(score > 400, "{line}");
            assert!(board.bytes().all(|b| b.is_ascii_uppercase()), "{line}");
            (score, board.to_string())
        })
        .collect()
}

/// The state file's JSON (`null` before it exists).
fn state_of(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_default()
}

/// Rewrites the state file as `edit` changes its JSON.
fn edit_state(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut state = state_of(path);
    edit(&mut state);
    std::fs::write(path, state.to_string()).expect("written");
}

/// The `"rounds"` the state file records (0 before it exists).
fn rounds_done(path: &Path) -> u64 {
    state_of(path)["rounds"].as_u64().unwrap_or(0)
}

fn boards(lines: &[(u32, String)]) -> BTreeSet<(u32, String)> {
    lines.iter().cloned().collect()
}

#[test]
fn a_hunt_killed_and_resumed_loses_nothing_and_repeats_nothing() {
    let dir = TempDir::new("hunt-kill");
    let (results_file, state_file) = (
        dir.path().join("killed/hunt-0.results"),
        dir.path().join("killed/hunt-0.state.json"),
    );
    let mut child = Killed(
        boggle_in(dir.path(), [HUNT, &["--hunt", "killed"]].concat())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the hunt starts"),
    );
    // Until two rounds are done and boards are written, then SIGKILL mid-round.
    wait_until(
        || {
            assert!(
                child.try_wait().expect("waitable").is_none(),
                "the hunt ended"
            );
            (rounds_done(&state_file) >= 2 && !results(&results_file).is_empty()).then_some(())
        },
        || "the hunt wrote nothing".to_string(),
    );
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let before = results(&results_file);
    let done = rounds_done(&state_file);

    let resumed = hunt(dir.path(), "killed", done + 2, &[]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_contains(&stderr, &format!("rounds {done} to {}", done + 2));
    let after = results(&results_file);
    assert_eq!(after[..before.len()], before[..], "a line found was lost");
    assert_eq!(
        boards(&after).len(),
        after.len(),
        "a board was written twice"
    );
    let distinct: BTreeSet<&String> = after.iter().map(|(_, b)| b).collect();
    assert_eq!(distinct.len(), after.len(), "a board has two scores");

    // The same rounds without a kill find exactly these boards.
    hunt(dir.path(), "whole", done + 2, &[]);
    let whole = results(&dir.path().join("whole/hunt-0.results"));
    assert_eq!(boards(&whole), boards(&after));
    assert_eq!(rounds_done(&state_file), done + 2);
}

#[test]
fn tasks_have_their_own_streams_and_merge_ranks_them_all() {
    let dir = TempDir::new("hunt-tasks");
    hunt(dir.path(), "a", 2, &["--task", "0"]);
    hunt(dir.path(), "a", 2, &["--task", "1"]);
    let task = |n: u32| results(&dir.path().join(format!("a/hunt-{n}.results")));
    let (zero, one) = (task(0), task(1));
    assert_ne!(boards(&zero), boards(&one), "two tasks searched alike");

    // Slurm's and Kubernetes' index variables name the task as --task does.
    for variable in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        let args = [HUNT, &["--hunt", variable, "--rounds", "2"]].concat();
        run(boggle_in(dir.path(), &args).env(variable, "1"));
        let path = dir.path().join(format!("{variable}/hunt-1.results"));
        assert_eq!(results(&path), one, "{variable}");
    }

    let merged = run(&mut boggle_in(
        dir.path(),
        [MERGE, &["a", "SLURM_ARRAY_TASK_ID", "--top", "5"]].concat(),
    ));
    let both = boards(&zero).union(&boards(&one)).cloned().collect();
    assert_eq!(printed(&merged), best_of(both, 5));
}

/// The `top` best boards as `--merge` ranks them: highest score first, ties
/// in letter order.
fn best_of(mut boards: Vec<(u32, String)>, top: usize) -> Vec<(u32, String)> {
    boards.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    boards.truncate(top);
    boards
}

/// The `SCORE LETTERS` lines a run printed.
fn printed(output: &Output) -> Vec<(u32, String)> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let (score, board) = line.split_once(' ').expect("SCORE LETTERS");
            (score.parse().expect("a score"), board.to_string())
        })
        .collect()
}

#[test]
fn a_hunt_ends_by_printing_its_best_boards() {
    let dir = TempDir::new("hunt-prints");
    let done = hunt(dir.path(), "h", 2, &["--top", "3"]);
    let expected = best_of(results(&dir.path().join("h/hunt-0.results")), 3);
    assert_eq!(expected.len(), 3, "too few boards above 400 to check");
    assert_eq!(printed(&done), expected);
}

#[test]
fn a_hunt_refuses_other_rules_and_needs_a_threshold() {
    let dir = TempDir::new("hunt-refuse");
    hunt(dir.path(), "h", 1, &[]);
    let args = [HUNT, &["--hunt", "h", "--rounds", "2", "--min-len", "4"]].concat();
    let refused = boggle_in(dir.path(), &args).output().expect("runs");
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.starts_with("boggle: ") && stderr.contains("use another directory"),
        "{stderr}"
    );
    let no_above = boggle_in(dir.path(), ["best", "--hunt", "h2"])
        .output()
        .expect("runs");
    assert_eq!(no_above.status.code(), Some(2));
}

/// A child's exit code, or a kill and a failure if it hangs.
fn ended(mut child: Killed, what: &str) -> (Option<i32>, String) {
    use std::io::Read;
    let code = exit_code(&mut child, what);
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    (code, stderr)
}

/// `boggle ARGS` in `dir`, stopped and failed if it hangs: its exit code and standard error.
fn guarded(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let child = boggle_in(dir, args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boggle starts");
    ended(Killed(child), &args.join(" "))
}

/// A hunt's flags and `--rounds 1` in `sub`.
fn one_round(sub: &str) -> Vec<&str> {
    [HUNT, &["--hunt", sub, "--rounds", "1"]].concat()
}

/// Appended lines that a hunt never writes (a forged score, the wrong size,
/// a board far too long, a board twice with another score) are dropped when
/// the hunt resumes, with one warning that counts them; the state's best
/// comes only from lines that check out, and `--merge` never ranks them,
/// resumed or not.
#[test]
fn forged_results_lines_are_dropped_and_never_ranked() {
    let dir = TempDir::new("hunt-forged");
    hunt(dir.path(), "h", 1, &[]);
    let path = dir.path().join("h/hunt-0.results");
    let honest = results(&path);
    let best = honest
        .iter()
        .map(|(s, _)| *s)
        .max()
        .expect("a board above 400");
    let (_, repeated) = honest[0].clone();
    let forged = format!(
        "99999 AAAAAAAAA\n5000 AB\n1 {}\n{} {repeated}\n",
        "A".repeat(57),
        best + 1
    );
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("opened");
    std::io::Write::write_all(&mut file, forged.as_bytes()).expect("appended");
    drop(file);

    // Merged as it is, the forged lines are not ranked, and said to be dropped.
    let merged = boggle_in(dir.path(), [MERGE, &["h", "--top", "3"]].concat())
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&merged.stderr);
    assert!(merged.status.success(), "{stderr}");
    assert_eq!(printed(&merged), best_of(honest.clone(), 3), "{stderr}");
    assert!(
        stderr.contains("hunt-0.results: dropped 4 lines that do not check out (the first, line"),
        "{stderr}"
    );

    let resumed = hunt(dir.path(), "h", 2, &[]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(
        stderr
            .matches("dropped 4 lines that do not check out")
            .count(),
        1,
        "{stderr}"
    );
    let after = results(&path);
    assert_eq!(after[..honest.len()], honest[..], "an honest line was lost");
    let forged: Vec<(u32, String)> = forged
        .lines()
        .map(|line| {
            let (score, board) = line.split_once(' ').expect("SCORE BOARD");
            (score.parse().expect("a score"), board.to_string())
        })
        .collect();
    assert!(
        !after.iter().any(|line| forged.contains(line)),
        "a forged line is still there"
    );
    let state = state_of(&dir.path().join("h/hunt-0.state.json"));
    let top = after.iter().map(|(s, _)| *s).max().expect("boards");
    assert_eq!(
        state["best_score"].as_u64(),
        Some(u64::from(top)),
        "{state}"
    );
}

/// `--merge` reads each task's fingerprint: a directory hunted under other
/// rules (here 4+ letters) is refused in one line naming both, never
/// ranked beside the boards of the rules given.
#[test]
fn merge_never_ranks_other_settings_together() {
    let dir = TempDir::new("hunt-merge-settings");
    hunt(dir.path(), "three", 1, &[]);
    hunt(dir.path(), "four", 1, &["--min-len", "4"]);
    let (code, stderr) = guarded(dir.path(), &[MERGE, &["three", "four"]].concat());
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("four/hunt-0.state.json: hunted under classic 3x3 4+ letters")
            && stderr.contains("not classic 3x3 3+ letters"),
        "{stderr}"
    );
}

/// What a state file says is checked: a forged best is forgotten, said
/// once, and the best is the best line that checks out; a count at its
/// largest (`rounds` at u64::MAX) is refused, never wrapped to 0.
#[test]
fn the_states_best_and_counts_are_checked() {
    let dir = TempDir::new("hunt-state");
    hunt(dir.path(), "h", 1, &[]);
    let state_path = dir.path().join("h/hunt-0.state.json");
    edit_state(&state_path, |state| state["best_score"] = 99999.into());
    let resumed = hunt(dir.path(), "h", 2, &[]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(stderr.matches("does not check out").count(), 1, "{stderr}");
    let state = state_of(&state_path);
    assert!(state["best_score"].as_u64() < Some(99999), "{state}");

    edit_state(&state_path, |state| state["rounds"] = u64::MAX.into());
    let (code, stderr) = guarded(dir.path(), &one_round("h"));
    assert_eq!(code, Some(1), "{stderr}");
    assert_contains(
        &stderr,
        "hunt-0.state.json: the count of rounds is at its largest",
    );
    assert_eq!(rounds_done(&state_path), u64::MAX, "the state was changed");
}

/// What may be planted in a hunt's directory: a FIFO as the results, the
/// state or the lock, a link (dangling or not), a state file of 3 GB. Each
/// is refused in one line, at once: never waited on, never followed (a
/// dangling link would have the hunt write outside its folder), never read
/// whole.
#[cfg(unix)]
#[test]
fn planted_files_in_a_hunt_directory_are_refused_in_one_line() {
    let dir = TempDir::new("hunt-planted");
    let outside = dir.path().join("outside.txt");
    let plants = [
        ("hunt-0.results", Plant::Fifo),
        ("hunt-0.state.json", Plant::Fifo),
        ("hunt-0.lock", Plant::Fifo),
        ("hunt-0.results", Plant::Link(&outside)),
        ("hunt-0.state.json", Plant::Link(Path::new("/dev/zero"))),
        ("hunt-0.state.json", Plant::Sparse(3 << 30)),
    ];
    for (n, (name, what)) in plants.into_iter().enumerate() {
        let sub = format!("h{n}");
        std::fs::create_dir(dir.path().join(&sub)).expect("a directory");
        plant(&dir.path().join(&sub).join(name), what);
        let (code, stderr) = guarded(dir.path(), &one_round(&sub));
        assert_eq!(code, Some(1), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.starts_with("boggle: ") && stderr.contains(name) && stderr.contains("refused"),
            "{name}: {stderr}"
        );
        assert!(!outside.exists(), "{name}: the hunt wrote through a link");
        // The same files refused by --merge too (the lock is never read).
        if name != "hunt-0.lock" {
            let (code, stderr) = guarded(dir.path(), &[MERGE, &[sub.as_str()]].concat());
            assert_eq!(code, Some(1), "merge {name}: {stderr}");
            assert!(stderr.contains("refused"), "merge {name}: {stderr}");
        }
    }
}

/// SIGTERM ends a hunt whatever it is blocked on: here writing its best
/// boards to a pipe nobody reads. It says it was stopped and exits 1.
#[cfg(unix)]
#[test]
fn a_hunt_blocked_on_a_full_pipe_ends_on_sigterm() {
    use std::io::BufRead;
    let dir = TempDir::new("hunt-sigterm");
    // Every board above 0 kept and printed: far more than a pipe holds
    // (HUNT's rules, size and thread, another threshold and round).
    let args = [
        &HUNT[..7],
        &[
            "--above", "0", "--round", "40000", "--rounds", "1", "--top", "1000000", "--hunt", "h",
        ],
    ]
    .concat();
    let mut child = Killed(
        boggle_in(dir.path(), &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the hunt starts"),
    );
    let _unread = child.stdout.take();
    let mut stderr = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    // Its closing line comes just before the boards.
    let mut line = String::new();
    while !line.starts_with("done: ") {
        line.clear();
        let read = stderr.read_line(&mut line).expect("stderr");
        assert!(read > 0, "the hunt ended before its closing line");
    }
    crate::common::signal(child.id(), "TERM");
    let code = exit_code(&mut child, "a hunt blocked on a full pipe");
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
    assert_eq!(code, Some(1), "{rest}");
    assert_contains(&rest, "boggle: stopped by a signal");
}
