//! `boggle best`: the command-line glue for the board search in
//! [`boggle_best`]: its flags, the progress line on stderr, Ctrl-C, and the
//! report of the best boards as text or JSON on stdout.

#![expect(
    clippy::disallowed_methods,
    reason = "a search's deadline and its progress line read the clock"
)]

use std::io::{self, BufWriter, Write};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use clap::builder::RangedU64ValueParser;

use super::args::{self, DICTIONARY_PRESETS, SolverArgs, rules_arg};
use super::hunt::{HuntArgs, Search};
use super::{CliError, UsageError};
use crate::play::player::signals::{self, OnSignal};
use boggle_best::{
    self as best, Budget, Objective, Options, Progress, Ranked, Schedule, Space, SpaceOf, letters,
};
use boggle_game::error::Error;
use boggle_game::rules::{Preset, Rules};
use boggle_game::text::plural;

/// Search time when neither `--time` nor `--iterations` is given.
const DEFAULT_SECONDS: f64 = 10.0;

const BEST_HELP: &str = "\
Without --dice any letter may go in any cell; with it, only boards those dice
can show (one die per cell, one face up). Boards equal under rotation or
reflection count once. Progress goes to stderr; Ctrl-C (or SIGTERM, SIGHUP)
stops the search and still prints the best boards.

--hunt DIR --above N searches until stopped, appending each distinct board
scoring more than N to DIR/hunt-TASK.results ('SCORE LETTERS') as it is
found; stopped, it prints DIR's best --top boards, and run again, it
resumes from DIR after a stop or a crash. Each task of an array (--task,
$SLURM_ARRAY_TASK_ID, $JOB_COMPLETION_INDEX) searches its own seed stream;
--merge DIR... prints the best boards of every task, given the rules, size
and --dict the tasks were hunted with. Every line read back is scored again:
one that does not check out is dropped, with a warning.";

/// Flags of `boggle best`.
#[derive(Debug, Args, Clone)]
#[command(
    after_help = BEST_HELP,
    mut_arg("preset", |arg| rules_arg(arg, Preset::Project4, &DICTIONARY_PRESETS))
)]
pub(crate) struct BestArgs {
    /// The word list, the rules and the vector instructions.
    #[command(flatten)]
    pub(crate) solver: SolverArgs,
    /// Search for this many seconds, fractions allowed, at most 86400 [default: 10]
    #[arg(short, long, value_name = "SECONDS", conflicts_with = "iterations", value_parser = args::search_seconds)]
    pub(crate) time: Option<f64>,
    /// Search until the chains have visited this many boards (repeatable with --seed and --threads)
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    pub(crate) iterations: Option<u64>,
    /// Independent search chains, one per thread, 1 to 256 [default: all cores, as a search gains from each]
    #[arg(long, value_name = "T", value_parser = args::threads())]
    pub(crate) threads: Option<usize>,
    /// Seed for a repeatable search [default: random]
    #[arg(short, long, value_name = "S")]
    pub(crate) seed: Option<u64>,
    /// How many distinct boards to print
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub(crate) top: usize,
    /// Stop as soon as a board scores at least this much (or when the time or iterations run out); the closing line says how long it took
    #[arg(long = "stop-at", visible_alias = "target", value_name = "SCORE", value_parser = RangedU64ValueParser::<u32>::new().range(1..))]
    pub(crate) stop_at: Option<u32>,
    /// What to maximise: points, or the number of words (--stop-at then counts words)
    #[arg(
        long = "score",
        value_name = "WHAT",
        default_value = "points",
        value_enum
    )]
    pub(crate) objective: Objective,
    /// Print the boards as JSON
    #[arg(long)]
    pub(crate) json: bool,
    /// The hunt's flags.
    #[command(flatten)]
    pub(crate) hunt: HuntArgs,
    /// Annealing: starting temperature in points (tuning)
    #[arg(long, value_name = "T", hide = true)]
    pub(crate) start_temp: Option<f64>,
    /// Annealing: final temperature in points (tuning)
    #[arg(long, value_name = "T", hide = true)]
    pub(crate) end_temp: Option<f64>,
    /// Annealing: moves per run (tuning)
    #[arg(long, value_name = "N", hide = true)]
    pub(crate) steps: Option<u64>,
    /// Annealing: share of moves that swap two cells (tuning)
    #[arg(long, value_name = "P", hide = true)]
    pub(crate) swap_share: Option<f64>,
    /// Escapes tried from each local maximum (tuning)
    #[arg(long, value_name = "N", hide = true)]
    pub(crate) escapes: Option<u32>,
    /// Random moves in a kick of the best local maximum (tuning)
    #[arg(long, value_name = "N", hide = true)]
    pub(crate) kick: Option<u32>,
    /// Kicks without a better local maximum before a fresh start; 0 never kicks (tuning)
    #[arg(long, value_name = "N", hide = true)]
    pub(crate) patience: Option<u32>,
    /// Local maxima each chain keeps to kick from; 1 kicks only its best (tuning)
    #[arg(long, value_name = "N", hide = true, value_parser = RangedU64ValueParser::<u32>::new().range(1..=64))]
    pub(crate) elites: Option<u32>,
}

/// How long a hunt has to finish after a signal before the process ends
/// anyway (Slurm's SIGKILL follows its SIGTERM after 30 s by default).
const HUNT_GRACE: Duration = Duration::from_secs(10);

/// Runs the search and prints the best boards.
pub(crate) fn run(args: &BestArgs) -> Result<(), CliError> {
    let rules = args.solver.start(Preset::Project4, "best")?;
    let options = options(args, rules.rows * rules.cols)?;
    // Dice named on the command line are searched as dice; otherwise any letters.
    let of = if args.solver.rules.dice.is_some() {
        SpaceOf::Dice
    } else {
        SpaceOf::Letters
    };
    let space = Space::for_rules(&rules, of).map_err(UsageError::Search)?;
    let dictionary = args.solver.dict.load(&rules)?;
    let search = Search {
        rules: &rules,
        space: &space,
        dictionary: &dictionary,
        options: &options,
        list: args.solver.dict.path.as_deref(),
        dice: args.solver.rules.dice,
    };
    if let Some(dirs) = &args.hunt.merge {
        return super::hunt::merge(dirs, args.top, &search);
    }
    if let Some(dir) = &args.hunt.hunt {
        // Unattended (a batch system's SIGTERM, then its SIGKILL): the state
        // is saved within moments, and the process ends in time whatever
        // it is blocked on.
        signals::install(OnSignal::FinishWithin(HUNT_GRACE));
        return super::hunt::run(dir, &args.hunt, args.seed, &search);
    }
    let progress = Arc::new(Progress::new());
    // Ctrl-C, SIGTERM and SIGHUP stop the search and keep its boards (the
    // progress loop passes the signal on to the search).
    signals::install(OnSignal::Finish);
    let started = Instant::now();
    let boards = thread::scope(|scope| {
        let worker =
            scope.spawn(|| best::search(dictionary.trie(), &rules, &space, &options, &progress));
        super::progress::watch(
            started,
            || status(&progress, started, options.objective),
            || worker.is_finished(),
            || progress.stop(),
        );
        worker.join()
    })
    .map_err(|_| CliError::WorkerFailed { work: "the search" })?
    .map_err(CliError::Threads)?;
    summarise(&progress, started, &options);
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        write_json(&mut out, &rules, &boards).map_err(Error::Output)?;
    } else {
        write_text(&mut out, &boards).map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)?;
    super::play::finished(Ok(()))
}

/// The search options the flags ask for (clap has checked their ranges).
fn options(args: &BestArgs, cells: usize) -> Result<Options, CliError> {
    let budget = match (args.time, args.iterations) {
        (_, Some(n)) => Budget::Iterations(n),
        (seconds, None) => {
            let seconds = seconds.unwrap_or(DEFAULT_SECONDS);
            // `search_seconds` admits only 0 < seconds <= a day, so this cannot fail.
            let time = Duration::try_from_secs_f64(seconds)
                .map_err(|_| UsageError::Seconds { seconds })?;
            Budget::Time(time)
        }
    };
    let threads = args
        .threads
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
        .min(args::MAX_THREADS);
    Ok(Options {
        budget,
        threads,
        seed: args.seed.unwrap_or_else(rand::random),
        top: args.top,
        schedule: schedule(args, cells),
        target: args.stop_at,
        objective: args.objective,
    })
}

/// The schedule for the board's size with any tuning flags applied.
fn schedule(args: &BestArgs, cells: usize) -> Schedule {
    let default = Schedule::for_cells(cells);
    Schedule {
        start: args.start_temp.unwrap_or(default.start),
        end: args.end_temp.unwrap_or(default.end),
        steps: args.steps.unwrap_or(default.steps),
        swap_share: args.swap_share.unwrap_or(default.swap_share),
        escapes: args.escapes.unwrap_or(default.escapes),
        kick: args.kick.unwrap_or(default.kick),
        patience: args.patience.unwrap_or(default.patience),
        elites: args.elites.unwrap_or(default.elites),
        ..default
    }
}

/// Elapsed time, boards scored per second, and the best board so far (its
/// word count marked `words` when that is what the search maximises).
fn status(progress: &Progress, started: Instant, objective: Objective) -> String {
    let seconds = started.elapsed().as_secs_f64();
    let rate = progress.scored() as f64 / seconds.max(1e-9);
    let unit = match objective {
        Objective::Points => "",
        Objective::Words => " words",
    };
    let best = progress.best().map_or_else(String::new, |best| {
        format!("  best {}{unit} {}", best.score, letters(&best.faces))
    });
    format!("{seconds:.1} s  {rate:.0} boards/s{best}")
}

/// When the best score was first reached: seconds from the start and boards scored until then.
fn first_reached(progress: &Progress, started: Instant) -> String {
    progress.best().map_or_else(String::new, |best| {
        let seconds = best.at.saturating_duration_since(started).as_secs_f64();
        format!(" (first at {seconds:.1} s, {} boards)", best.after)
    })
}

/// The closing line on stderr: how much was searched, with which seed, and
/// when the best score was first reached. A search that ended on `--stop-at`
/// starts with `reached N in S s:`, the time to the first board scoring N
/// (what a measurement of time-to-record reads).
fn summarise(progress: &Progress, started: Instant, options: &Options) {
    let how = match (progress.reached_target(), options.target, progress.best()) {
        (true, Some(target), Some(best)) if !progress.is_stopped() => {
            let seconds = best.at.saturating_duration_since(started).as_secs_f64();
            format!("reached {target} in {seconds:.2} s")
        }
        _ if progress.is_stopped() => "stopped".to_string(),
        _ => "done".to_string(),
    };
    let threads = format!(
        "{} {}",
        options.threads,
        plural(options.threads, "thread", "threads")
    );
    let line = format!(
        "{how}: {}{}, {} boards, seed {}, {threads}",
        status(progress, started, options.objective),
        first_reached(progress, started),
        progress.scored(),
        options.seed,
    );
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
    if progress.skipped() > 0 {
        let _ = writeln!(
            err,
            "skipped {} boards whose search passed its step limit (the word list is made up?)",
            progress.skipped()
        );
    }
}

/// Each board: its rank, score, word count and letters, then the grid.
fn write_text<W: Write>(out: &mut W, boards: &[Ranked]) -> io::Result<()> {
    for (rank, ranked) in boards.iter().enumerate() {
        if rank > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{}. {} points, {} words: {}",
            rank + 1,
            ranked.score,
            ranked.words,
            ranked.board.letters()
        )?;
        write!(out, "{}", ranked.board)?;
    }
    Ok(())
}

/// The boards as one JSON object; every string is letters or a preset name, so nothing needs escaping.
fn write_json<W: Write>(out: &mut W, rules: &Rules, boards: &[Ranked]) -> io::Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"rules\": \"{}\",", rules.preset)?;
    writeln!(out, "  \"rows\": {},", rules.rows)?;
    writeln!(out, "  \"cols\": {},", rules.cols)?;
    writeln!(out, "  \"boards\": [")?;
    for (rank, ranked) in boards.iter().enumerate() {
        let grid: Vec<String> = ranked
            .board
            .faces()
            .chunks(ranked.board.cols().max(1))
            .map(|row| {
                let cells: Vec<String> = row.iter().map(|f| format!("\"{f}\"")).collect();
                format!("[{}]", cells.join(", "))
            })
            .collect();
        let comma = if rank + 1 < boards.len() { "," } else { "" };
        writeln!(
            out,
            "    {{\"score\": {}, \"words\": {}, \"letters\": \"{}\", \"grid\": [{}]}}{comma}",
            ranked.score,
            ranked.words,
            ranked.board.letters(),
            grid.join(", ")
        )?;
    }
    writeln!(out, "  ]")?;
    writeln!(out, "}}")
}
