//! `boggle best --hunt`: a hunt killed with SIGKILL and resumed loses no
//! board it found and writes none twice (its results are the ones an
//! uninterrupted hunt of as many rounds writes); each task has its own seed
//! stream, from `--task` or the scheduler's variable; `--merge` gives the best
//! boards of every task; a hunt refuses a directory made under other rules.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::TempDir;

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

/// `boggle` with `args` in `dir`, with no scheduler's task variables.
fn boggle(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boggle"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .stdin(Stdio::null());
    command
}

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
    run(&mut boggle(dir, &args))
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

/// The `"rounds"` the state file records (0 before it exists).
fn rounds_done(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|state| state["rounds"].as_u64())
        .unwrap_or(0)
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
    let mut child = boggle(dir.path(), &[HUNT, &["--hunt", "killed"]].concat())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the hunt starts");
    // Until two rounds are done and boards are written, then SIGKILL mid-round.
    let give_up = Instant::now() + Duration::from_secs(120);
    while rounds_done(&state_file) < 2 || results(&results_file).is_empty() {
        assert!(
            Instant::now() < give_up,
            "the hunt wrote nothing in 2 minutes"
        );
        assert!(
            child.try_wait().expect("waitable").is_none(),
            "the hunt ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let before = results(&results_file);
    let done = rounds_done(&state_file);

    let resumed = hunt(dir.path(), "killed", done + 2, &[]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        stderr.contains(&format!("rounds {done} to {}", done + 2)),
        "{stderr}"
    );
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
        run(boggle(dir.path(), &args).env(variable, "1"));
        let path = dir.path().join(format!("{variable}/hunt-1.results"));
        assert_eq!(results(&path), one, "{variable}");
    }

    let merged = run(&mut boggle(
        dir.path(),
        &["best", "--merge", "a", "SLURM_ARRAY_TASK_ID", "--top", "5"],
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
    let refused = boggle(dir.path(), &args).output().expect("runs");
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.starts_with("boggle: ") && stderr.contains("use another directory"),
        "{stderr}"
    );
    let no_above = boggle(dir.path(), &["best", "--hunt", "h2"])
        .output()
        .expect("runs");
    assert_eq!(no_above.status.code(), Some(2));
}
