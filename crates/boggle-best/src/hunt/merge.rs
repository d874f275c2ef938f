//! `boggle best --merge DIR...`: the best distinct boards of every task's
//! results in some directories. Each task's state file names the settings
//! it was hunted under (its fingerprint): a task of other settings than
//! the ones given is refused, so boards of other sizes, rules or word
//! lists are never ranked together. Every results line is checked as a
//! resumed hunt checks it ([`super::lines`]), and only the lines that check
//! out are ranked; the others are counted for a warning. Files are opened
//! as the hunt opens them: a FIFO, a device or a link is refused.
//!
//! Limit: a results file without its state file (a task killed before it
//! finished a round) has no fingerprint: its lines are checked under the
//! settings given, and those of other settings do not check out.

use std::fs;
use std::path::{Path, PathBuf};

use ahash::AHashSet;

use boggle_files as files;

use super::lines::{self, Checker, Dropped};
use super::{HuntError, io_error, read_state};

/// What a merge found.
#[derive(Debug, Default)]
pub struct Merged {
    /// The best distinct boards, highest score first, ties in letter order.
    pub boards: Vec<(u32, String)>,
    /// The results files whose lines did not all check out, with what was dropped.
    pub dropped: Vec<(PathBuf, Dropped)>,
}

/// The best `top` distinct boards of every task's results in `dirs`, each
/// task hunted under `fingerprint` and each line checked by `checker`.
pub fn merge(
    dirs: &[PathBuf],
    top: usize,
    fingerprint: &str,
    checker: &mut Checker,
) -> Result<Merged, HuntError> {
    let mut merged = Merged::default();
    let mut all: Vec<(u32, String)> = Vec::new();
    for dir in dirs {
        for task in tasks(dir)? {
            let state_path = dir.join(format!("hunt-{task}.state.json"));
            if let Some(state) = read_state(&state_path)?
                && state.fingerprint != fingerprint
            {
                return Err(HuntError::OtherSettings {
                    path: state_path,
                    recorded: state.fingerprint,
                    given: fingerprint.to_string(),
                });
            }
            let path = dir.join(format!("hunt-{task}.results"));
            let mut read = files::options();
            read.read(true);
            let Some(file) = files::open(&path, &read, u64::MAX, "a hunt's results")? else {
                continue;
            };
            // Each file's repeats are its own: the same board in two tasks is no fault.
            let mut seen = AHashSet::new();
            let read =
                lines::read_results(std::io::BufReader::new(&file), &path, checker, &mut seen)?;
            if read.dropped.count > 0 {
                merged.dropped.push((path, read.dropped));
            }
            all.extend(read.lines);
        }
    }
    all.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut seen = AHashSet::new();
    all.retain(|(_, board)| seen.insert(board.clone()));
    all.truncate(top);
    merged.boards = all;
    Ok(merged)
}

/// The task indexes with a results or a state file in `dir`, in order.
fn tasks(dir: &Path) -> Result<Vec<u32>, HuntError> {
    let mut tasks = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let name = entry.map_err(io_error(dir))?.file_name();
        let Some(name) = name.to_str() else { continue };
        let task = name
            .strip_prefix("hunt-")
            .and_then(|rest| {
                rest.strip_suffix(".results")
                    .or_else(|| rest.strip_suffix(".state.json"))
            })
            // As the hunt names it: `hunt-7`, never `hunt-07` or `hunt-+7`.
            .and_then(|index| index.parse::<u32>().ok().filter(|t| t.to_string() == index));
        if let Some(task) = task {
            tasks.push(task);
        }
    }
    tasks.sort_unstable();
    tasks.dedup();
    Ok(tasks)
}
