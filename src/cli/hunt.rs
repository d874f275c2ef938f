//! `boggle best --hunt DIR` and `boggle best --merge DIR...`: the command-line
//! glue for a hunt ([`boggle_best::hunt`]): which task this is (`--task`, or
//! the index Slurm or Kubernetes gives), the rounds of search until a signal,
//! each on a thread while the progress line (the best so far, boards per
//! second) is drawn and the boards caught are written, and one line on
//! standard error for what did not check out in the files read back.

#![expect(
    clippy::disallowed_methods,
    reason = "a hunt's rounds and progress line read the clock"
)]

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Instant;

use clap::Args;
use clap::builder::RangedU64ValueParser;

use super::{CliError, UsageError};
use crate::play::player::signals;
use boggle_best::hunt::{self, Checker, DEFAULT_ROUND, Dropped, Hunt, HuntError};
use boggle_best::{self as best, Options, Progress, Space};
use boggle_game::dice::DiceSet;
use boggle_game::dictionary::Dictionary;
use boggle_game::error::Error;
use boggle_game::rules::Rules;

/// The flags of `boggle best` that run or merge a hunt.
#[derive(Debug, Args, Clone, Default)]
pub(crate) struct HuntArgs {
    /// Search until stopped, keeping every board above --above in DIR as it is found; resumes from DIR
    #[arg(long, value_name = "DIR", conflicts_with_all = ["time", "iterations", "stop_at", "json", "merge"])]
    pub(crate) hunt: Option<PathBuf>,
    /// With --hunt: keep the boards scoring more than this (required)
    #[arg(long, value_name = "SCORE", requires = "hunt")]
    pub(crate) above: Option<u32>,
    /// With --hunt: this task's index, its own seed stream [default: $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX, else 0]
    #[arg(long, value_name = "I", requires = "hunt")]
    pub(crate) task: Option<u32>,
    /// Print the best --top boards of the hunts in these directories (every task's results)
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["time", "iterations", "stop_at", "json"])]
    pub(crate) merge: Option<Vec<PathBuf>>,
    /// With --hunt: boards each chain scores per round (tuning, tests)
    #[arg(long, value_name = "N", hide = true, requires = "hunt", value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    pub(crate) round: Option<u64>,
    /// With --hunt: stop once the hunt has finished this many rounds in all (tests)
    #[arg(long, value_name = "N", hide = true, requires = "hunt")]
    pub(crate) rounds: Option<u64>,
}

/// What a hunt searches: the rules, boards and word list `best` resolved, and
/// what the directory's fingerprint names (the list's file, the dice).
pub(super) struct Search<'a> {
    pub(super) rules: &'a Rules,
    pub(super) space: &'a Space,
    pub(super) dictionary: &'a Dictionary,
    pub(super) options: &'a Options,
    pub(super) list: Option<&'a Path>,
    pub(super) dice: Option<DiceSet>,
}

/// The environment variables a scheduler gives a task's index in, in the order read.
const TASK_VARIABLES: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// Runs a hunt in `dir` until a signal (or `--rounds`), resuming what the
/// directory holds.
pub(super) fn run(
    dir: &Path,
    args: &HuntArgs,
    seed: Option<u64>,
    search: &Search,
) -> Result<(), CliError> {
    let Search {
        rules,
        space,
        dictionary,
        options: base,
        ..
    } = *search;
    let above = args.above.ok_or(UsageError::NeedsFlag {
        mode: "best --hunt",
        flag: "--above SCORE",
    })?;
    let task = task_index(args.task)?;
    let mut checker = checker(search);
    let hunt =
        Hunt::open(dir, task, &fingerprint(search), seed, &mut checker).map_err(CliError::Hunt)?;
    let (dropped, results) = hunt.dropped();
    warn_dropped(results, dropped);
    if let Some((line, why, state)) = hunt.bad_best() {
        super::report(&format!(
            "{}: its best board {line:?} does not check out ({why}): the best is now the best line that does",
            state.display()
        ));
    }
    let resumed = hunt.state().rounds;
    let hunt = RefCell::new(hunt);
    let started = Instant::now();
    let mut scored = 0u64;
    let per_round = args.round.unwrap_or(DEFAULT_ROUND);
    loop {
        let rounds = hunt.borrow().state().rounds;
        if signals::stopped() || args.rounds.is_some_and(|n| rounds >= n) {
            break;
        }
        let options = hunt.borrow().round_options(base, per_round);
        let progress = Progress::catching(above);
        let failure: RefCell<Option<HuntError>> = RefCell::new(None);
        let drain = || {
            if let Err(e) = hunt.borrow_mut().record_caught(&progress) {
                failure.borrow_mut().get_or_insert(e);
                progress.stop();
            }
        };
        thread::scope(|scope| {
            let worker =
                scope.spawn(|| best::search(dictionary.trie(), rules, space, &options, &progress));
            super::progress::watch(
                started,
                || status(&hunt.borrow(), started, scored + progress.scored(), above),
                || {
                    drain();
                    worker.is_finished()
                },
                || progress.stop(),
            );
            worker.join()
        })
        .map_err(|_| CliError::WorkerFailed { work: "the hunt" })?
        .map_err(CliError::Threads)?;
        drain();
        if let Some(e) = failure.into_inner() {
            return Err(CliError::Hunt(e));
        }
        scored += progress.scored();
        hunt.borrow_mut()
            .close_round(&progress)
            .map_err(CliError::Hunt)?;
        if progress.is_stopped() {
            break;
        }
    }
    let hunt = hunt.into_inner();
    let how = if signals::stopped() {
        "stopped"
    } else {
        "done"
    };
    let _ = writeln!(
        io::stderr().lock(),
        "{how}: {}, task {task}, rounds {resumed} to {} (the next resumes there), in {}",
        status(&hunt, started, scored, above),
        hunt.state().rounds,
        dir.display(),
    );
    // As a search stopped early still prints its best boards, a hunt prints
    // its directory's (every task's there, as `--merge DIR` would).
    merge(&[dir.to_path_buf()], base.top, search)?;
    super::play::finished(Ok(()))
}

/// `--merge DIR...`: the best distinct boards of every task's results
/// hunted under `search`'s settings, one `SCORE BOARD` line each, as the
/// results files hold them, every line checked first.
pub(super) fn merge(dirs: &[PathBuf], top: usize, search: &Search) -> Result<(), CliError> {
    let merged = hunt::merge(dirs, top, &fingerprint(search), &mut checker(search))
        .map_err(CliError::Hunt)?;
    for (path, dropped) in &merged.dropped {
        warn_dropped(path, dropped);
    }
    let boards = merged.boards;
    let mut out = BufWriter::new(io::stdout().lock());
    for (score, board) in boards {
        writeln!(out, "{score} {board}").map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)?;
    Ok(())
}

/// The task's index: `--task`, else the scheduler's (Slurm array, Kubernetes
/// Indexed Job), else 0.
fn task_index(flag: Option<u32>) -> Result<u32, UsageError> {
    if let Some(task) = flag {
        return Ok(task);
    }
    for name in TASK_VARIABLES {
        if let Ok(value) = std::env::var(name) {
            return value.trim().parse().map_err(|_| UsageError::Label {
                flag: "--task",
                reason: format!("${name} is {value:?}, not a task index"),
            });
        }
    }
    Ok(0)
}

/// Says on standard error, in one line, which lines of the results file
/// `path` did not check out, if any did not.
fn warn_dropped(path: &Path, dropped: &Dropped) {
    if dropped.count > 0 {
        super::report(&format!("{}: {dropped}", path.display()));
    }
}

/// What checks the lines of a hunt of `search`'s settings.
fn checker<'a>(search: &Search<'a>) -> Checker<'a> {
    Checker::new(
        search.dictionary.trie(),
        search.rules,
        search.options.objective,
    )
}

/// The fingerprint of what `search` scores boards by (see [`hunt::fingerprint`]).
fn fingerprint(search: &Search) -> String {
    hunt::fingerprint(
        search.rules,
        search.options.objective,
        search.list,
        search.dice,
        search.dictionary.len(),
    )
}

/// The hunt's progress: time, boards per second this session, the best so far and the boards kept.
fn status(hunt: &Hunt, started: Instant, scored: u64, above: u32) -> String {
    let seconds = started.elapsed().as_secs_f64();
    let rate = scored as f64 / seconds.max(1e-9);
    let state = hunt.state();
    let best = if state.best_board.is_empty() {
        String::new()
    } else {
        format!("  best {} {}", state.best_score, state.best_board)
    };
    format!(
        "{seconds:.1} s  round {}  {rate:.0} boards/s{best}  {} boards above {above}",
        state.rounds,
        hunt.found()
    )
}
