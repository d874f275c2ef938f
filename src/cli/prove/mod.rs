//! `boggle prove` and `boggle prove merge`: the command-line glue for the
//! branch-and-bound proof in [`boggle_prove`]: flags, shard files, the
//! progress line on stderr, Ctrl-C, `--sample` estimates, and the report
//! (`report`); merging and rechecking shards (`merge`).

#![expect(
    clippy::disallowed_methods,
    reason = "a proof's progress line reads the clock"
)]

mod merge;
mod report;
mod sample;

use std::collections::HashSet;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Instant;

use clap::{ArgGroup, Args, Subcommand};

use super::args::{self, SolverArgs};
use super::{CliError, UsageError};
use crate::play::player::signals::{self, OnSignal};
use boggle_game::Dictionary;
use boggle_game::error::Error;
use boggle_game::rules::{Preset, Rules, WordList};
use boggle_game::text::plural;
use boggle_prove::classes::{Buckets, Classes, Group};
use boggle_prove::shard::{Checker, Origin, Params, Resumed, Shard, ShardFiles};
use boggle_prove::strata;
use boggle_prove::{self, ClassRecord, Progress, ProveError, Settings, Summary};
use report::{Covers, report_line, status, write_summary};

const PROVE_HELP: &str = "\
Finds every board (once up to rotation and reflection) scoring at least
--above, or proves there is none, by branch and bound over classes of boards
(each cell one bucket of letters). --shard I/N with --out DIR runs one share of
the classes and writes DIR/shard-I-of-N.{params.json,ndjson,done}; --resume
continues a shard from its file; 'boggle prove merge DIR...' checks every line
of the shards, combines them and says whether the proof is complete.

--sample K, --precision P and --budget SECONDS estimate the whole proof's CPU
time instead, from groups of classes drawn at random, more of them where a
quick pre-pass predicts the cost is; the sample stops at K groups, once the 95%
interval is within P of the estimate, or once SECONDS of CPU time are spent,
whichever comes first, and its last line says which. Progress (with the time
left, estimated the same way) goes to stderr; Ctrl-C stops after the classes in
hand (their lines are kept for --resume).";

/// The version shard files record (`params.json`'s `"version"`).
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Flags of `boggle prove`.
#[derive(Debug, Args, Clone)]
#[command(
    after_help = PROVE_HELP,
    args_conflicts_with_subcommands = true,
    group = ArgGroup::new("sampling").args(["sample", "precision", "budget"]).multiple(true),
    mut_arg("preset", |arg| args::rules_arg(arg, Preset::Classic, &args::DICTIONARY_PRESETS)),
    mut_arg("size", |arg| arg.help("Board size: N for N x N, or RxC (required)"))
)]
pub(crate) struct ProveArgs {
    /// Combine shards instead of proving.
    #[command(subcommand)]
    pub(crate) command: Option<ProveCommand>,
    /// The word list, the rules and the vector instructions.
    #[command(flatten)]
    pub(crate) solver: SolverArgs,
    /// Find every board scoring at least this (required)
    #[arg(long, value_name = "SCORE")]
    pub(crate) above: Option<u32>,
    /// Letter buckets: groups separated by spaces, corner groups after '/'
    #[arg(long, value_name = "SPEC")]
    pub(crate) buckets: Option<String>,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long, value_name = "T", value_parser = args::threads())]
    pub(crate) threads: Option<usize>,
    /// Run shard I of N of the classes (0 <= I < N, N at most the groups)
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<String>,
    /// Directory for the shard's files
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Skip the classes already in the shard's file in --out
    #[arg(long, requires = "out")]
    pub(crate) resume: bool,
    /// Estimate the whole proof's CPU time from at most K groups of classes, drawn at random
    #[arg(long, value_name = "K", conflicts_with_all = ["shard", "out", "resume"])]
    pub(crate) sample: Option<usize>,
    /// Estimate the whole proof's CPU time, drawing groups until the 95% interval is within P of the estimate (0.2: 20%)
    #[arg(long, value_name = "P", value_parser = precision, conflicts_with_all = ["shard", "out", "resume"])]
    pub(crate) precision: Option<f64>,
    /// Estimate the whole proof's CPU time, drawing groups until SECONDS of CPU time are spent
    #[arg(long, value_name = "SECONDS", value_parser = budget, conflicts_with_all = ["shard", "out", "resume"])]
    pub(crate) budget: Option<f64>,
    /// Seed for a sample's draws [default: random]
    #[arg(long, value_name = "S", requires = "sampling")]
    pub(crate) seed: Option<u64>,
    /// With a sample: sample classes, each proved on its own, instead of groups
    #[arg(long, requires = "sampling")]
    pub(crate) per_class: bool,
    /// With a sample: write each group's cost to FILE, a tab-separated line a group
    #[arg(long, value_name = "FILE", requires = "sampling")]
    pub(crate) costs: Option<PathBuf>,
    /// With a sample: no strata, and an interval as if costs were normal (to compare with)
    #[arg(long, hide = true, requires = "sampling")]
    pub(crate) simple: bool,
}

/// `--precision P`: a share of the estimate, above 0 and at most 1.
fn precision(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|p| *p > 0.0 && *p <= 1.0)
        .ok_or_else(|| {
            "write a share of the estimate above 0 and at most 1, such as 0.2".to_string()
        })
}

/// `--budget SECONDS`: CPU seconds, above 0 and at most a year's.
fn budget(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s <= MAX_BUDGET)
        .ok_or_else(|| format!("write a number of CPU seconds above 0 and at most {MAX_BUDGET}"))
}

/// The largest `--budget`: a year of CPU time.
const MAX_BUDGET: f64 = 31_536_000.0;

/// The subcommands of `boggle prove`.
#[derive(Debug, Subcommand, Clone)]
pub(crate) enum ProveCommand {
    /// Check every line of shards' files, combine them, and say whether the proof is complete
    Merge(merge::MergeArgs),
}

/// Runs `boggle prove` or `boggle prove merge`.
pub(crate) fn run(args: &ProveArgs) -> Result<(), CliError> {
    args.solver.simd.apply()?;
    if let Some(ProveCommand::Merge(merge)) = &args.command {
        return merge::run(merge);
    }
    let job = Job::prepare(args)?;
    if args.sample.is_some() || args.precision.is_some() || args.budget.is_some() {
        job.sample(args)
    } else {
        job.prove_shard(args)
    }
}

/// A proof ready to run: the flags checked, the classes dealt into groups,
/// the word list read, the clock started.
struct Job {
    rules: Rules,
    settings: Settings,
    shard: Shard,
    threads: usize,
    classes: Classes,
    groups: Vec<Group>,
    dictionary: Dictionary,
    progress: Progress,
    started: Instant,
}

impl Job {
    /// Checks the flags in the order their errors are reported (the size and
    /// the table of classes before the word list is read), then reads it.
    fn prepare(args: &ProveArgs) -> Result<Job, CliError> {
        let (rules, settings) = settings(args)?;
        let shard = match &args.shard {
            Some(text) => Shard::parse(text)?,
            None => Shard::ALL,
        };
        let threads = args
            .threads
            .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()));
        if args.sample == Some(0) {
            return Err(UsageError::TooSmall {
                flags: "--sample",
                least: "1",
            }
            .into());
        }
        let classes = settings.classes();
        let groups = classes.groups();
        shard.check(groups.len())?;
        let dictionary = args.solver.dict.load(&rules)?;
        Ok(Job {
            rules,
            settings,
            shard,
            threads,
            classes,
            groups,
            dictionary,
            progress: Progress::new(),
            started: Instant::now(),
        })
    }

    /// Proves this shard's groups (all of them without `--shard`), skipping
    /// the classes `--resume` finds done and appending each class's line to
    /// the shard's file with `--out`; then the summary, if every class is done.
    fn prove_shard(&self, args: &ProveArgs) -> Result<(), CliError> {
        let mut mine = self.shard.select(&self.groups);
        // In a random order (fixed by the shard), so that the groups done at
        // any time are a random sample of the shard's, in strata by the
        // pre-pass: the time left is estimated as a sample's cost is.
        let mut rng = boggle_game::random::seeded(u64::from(self.shard.index));
        boggle_game::random::shuffle(&mut rng, &mut mine);
        let strata = strata::stratify(self.dictionary.trie(), &self.settings, &mine, self.threads);
        self.progress
            .stratify(mine.iter().map(|g| g.id).zip(strata.of).collect());
        let (files, resumed) = match &args.out {
            Some(dir) => {
                let (files, resumed) = self.open_files(dir, args)?;
                (Some(files), resumed)
            }
            None => (None, Resumed::default()),
        };
        report_resumed(&resumed, class_count(&mine));
        let mut records = resumed.records;
        let done: HashSet<u64> = records.iter().map(|r| r.class).collect();
        let fresh = self.prove(&mine, &|c| done.contains(&c), |record| match &files {
            Some(files) => files.append(record),
            None => Ok(()),
        })?;
        records.extend(fresh);
        // Finished when every class the shard owns has a record: counted as
        // classes, never as lines (a class read twice would count twice).
        let have: HashSet<u64> = records.iter().map(|r| r.class).collect();
        let finished = mine
            .iter()
            .all(|g| g.classes.iter().all(|c| have.contains(c)));
        if !finished {
            io::stdout().lock().flush().map_err(Error::Output)?;
            return Err(CliError::Unfinished {
                done: have.len(),
                total: class_count(&mine),
                resumable: files.is_some(),
            });
        }
        if let Some(files) = &files {
            files.finish(&records)?;
        }
        self.write_result(&records)
    }

    /// Opens (or, with `--resume`, reopens and checks) the shard's files in `dir`.
    fn open_files(&self, dir: &Path, args: &ProveArgs) -> Result<(ShardFiles, Resumed), CliError> {
        let label = dictionary_label(args.solver.dict.path.as_deref(), self.rules.word_list);
        let origin = Origin {
            version: VERSION,
            rules: self.rules.preset.name(),
            dictionary: &label,
        };
        let params = Params::new(
            &self.settings,
            origin,
            self.dictionary.words(),
            class_count(&self.groups) as u64,
            self.shard.count,
        );
        let mut checker = Checker::new(
            self.dictionary.trie(),
            &self.settings,
            &self.classes,
            &self.groups,
            self.shard.count,
        );
        Ok(ShardFiles::open(
            dir,
            self.shard,
            &params,
            args.resume,
            &mut checker,
        )?)
    }

    /// Proves `groups` on the worker threads, showing progress, skipping
    /// the classes `skip` names and passing each class's record to `sink`.
    fn prove<F>(
        &self,
        groups: &[Group],
        skip: &(dyn Fn(u64) -> bool + Sync),
        sink: F,
    ) -> Result<Vec<ClassRecord>, CliError>
    where
        F: Fn(&ClassRecord) -> Result<(), ProveError> + Sync + Send,
    {
        let line = || status(&self.progress, self.started, self.threads);
        run_watched(&self.progress, self.started, &line, || {
            boggle_prove::prove_groups(
                self.dictionary.trie(),
                &self.settings,
                groups,
                skip,
                self.threads,
                &self.progress,
                sink,
            )
        })
    }

    /// The shard's line (when there are several shards) and the summary, on stdout.
    fn write_result(&self, records: &[ClassRecord]) -> Result<(), CliError> {
        let summary = Summary::of(records, self.settings.above());
        let wall = self.started.elapsed().as_secs_f64();
        let covers = if self.shard.count > 1 {
            Covers::OneShard
        } else {
            Covers::AllClasses
        };
        print(|out| {
            if covers == Covers::OneShard {
                writeln!(
                    out,
                    "shard {}/{}: {} classes done; 'boggle prove merge' gives the proof",
                    self.shard.index,
                    self.shard.count,
                    records.len()
                )?;
            }
            write_summary(
                out,
                &summary,
                &self.settings,
                self.classes.total(),
                wall,
                self.threads,
                covers,
            )
        })?;
        // Stopped by a signal: what was proved is written; the exit status says it is not all.
        super::play::finished(Ok(()))
    }
}

/// The rules and the proof's settings the flags give: `--size` and
/// `--above` required, the rules resolved, the buckets parsed.
fn settings(args: &ProveArgs) -> Result<(Rules, Settings), CliError> {
    if args.solver.rules.size.is_none() {
        return Err(UsageError::NeedsFlag {
            mode: "prove",
            flag: "--size (e.g. 3x3)",
        }
        .into());
    }
    let above = args.above.ok_or(UsageError::NeedsFlag {
        mode: "prove",
        flag: "--above SCORE",
    })?;
    let rules = args
        .solver
        .rules
        .resolve_with_dictionary(Preset::Classic, "prove")?;
    let buckets = match &args.buckets {
        Some(spec) => Buckets::parse(spec).map_err(ProveError::Buckets)?,
        None => Buckets::default_for(rules.rows, rules.cols),
    };
    let settings = Settings::new(&rules, buckets, above)?.grouped(!args.per_class);
    Ok((rules, settings))
}

/// How many classes `groups` hold.
fn class_count(groups: &[Group]) -> usize {
    groups.iter().map(|g| g.classes.len()).sum()
}

/// Writes to standard output through one buffer, flushed at the end.
fn print<F>(write: F) -> Result<(), CliError>
where
    F: FnOnce(&mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
{
    let mut out = BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(Error::Output)?;
    Ok(())
}

/// Says on stderr what `--resume` found: classes done, repeated lines, a cut line.
fn report_resumed(resumed: &Resumed, mine: usize) {
    if resumed.records.is_empty() && resumed.repeats == 0 && !resumed.cut {
        return;
    }
    let mut line = format!(
        "resuming: {} of {mine} classes already done",
        resumed.records.len()
    );
    if resumed.repeats > 0 {
        line += &format!(
            "; {} repeated {} ignored (two runs of this shard overlapped)",
            resumed.repeats,
            plural(resumed.repeats, "line", "lines")
        );
    }
    if resumed.cut {
        line += "; a partial last line cut off";
    }
    report_line(&line);
}

/// Where the word list came from, as the settings record it: its path made
/// absolute (so `merge` finds it from anywhere), or `builtin:NAME`.
fn dictionary_label(path: Option<&Path>, list: WordList) -> String {
    match path {
        Some(path) => std::fs::canonicalize(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .to_string_lossy()
            .into_owned(),
        None => match list {
            WordList::Course => merge::BUILTIN_COURSE.to_string(),
            WordList::Player => merge::BUILTIN_PLAYER.to_string(),
        },
    }
}

/// Runs `work` on its own thread while showing `status` as progress, with
/// Ctrl-C wired to stop it.
fn run_watched<F, T>(
    progress: &Progress,
    started: Instant,
    status: &dyn Fn() -> String,
    work: F,
) -> Result<T, CliError>
where
    F: FnOnce() -> Result<T, ProveError> + Send,
    T: Send,
{
    // Ctrl-C, SIGTERM and SIGHUP stop the workers after their current class.
    signals::install(OnSignal::Finish);
    thread::scope(|scope| {
        let worker = scope.spawn(work);
        super::progress::watch(started, status, || worker.is_finished(), || progress.stop());
        worker.join()
    })
    .map_err(|_| CliError::WorkerFailed { work: "the proof" })?
    .map_err(CliError::from)
}
