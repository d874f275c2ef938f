//! `boggle prove` and `boggle prove merge`: the command-line glue for the
//! branch-and-bound proof in [`crate::modes::prove`]: flags, shard files, the
//! progress line on stderr, Ctrl-C, `--sample` estimates, and the report.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::thread;
use std::time::Instant;

use clap::{Args, Subcommand};

use super::args::{self, RulesArgs};
use super::{CliError, UsageError};
use crate::error::Error;
use crate::modes::prove::classes::Buckets;
use crate::modes::prove::shard::{self, Params, Shard, ShardFiles};
use crate::modes::prove::{self, ClassRecord, Progress, ProveError, Settings, Summary};
use crate::player::signals::{self, OnSignal};
use crate::rules::Preset;

const PROVE_HELP: &str = "\
Finds every board (once up to rotation and reflection) scoring at least
--above, or proves there is none, by branch and bound over classes of boards
(each cell one bucket of letters). --shard I/N with --out DIR runs one share of
the classes and writes DIR/shard-I-of-N.{params.json,ndjson,done}; --resume
continues a shard from its file; 'boggle prove merge DIR...' combines shards and
says whether the proof is complete. --sample K proves K random groups of
classes (with --per-class, K classes each on its own) and estimates the whole
proof's CPU time. Progress goes to stderr; Ctrl-C stops
after the classes in hand (their lines are kept for --resume).";

/// Flags of `boggle prove`.
#[derive(Debug, Args, Clone)]
#[command(
    after_help = PROVE_HELP,
    args_conflicts_with_subcommands = true,
    mut_arg("preset", |arg| args::rules_arg(arg, Preset::Classic, &args::DICTIONARY_PRESETS)),
    mut_arg("size", |arg| arg.help("Board size: N for N x N, or RxC (required)"))
)]
pub struct ProveArgs {
    /// Combine shards instead of proving.
    #[command(subcommand)]
    pub command: Option<ProveCommand>,
    /// The word list.
    #[command(flatten)]
    pub dict: args::DictArgs,
    /// The rules to score by [default: classic]; --size is required.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Find every board scoring at least this (required)
    #[arg(long, value_name = "SCORE")]
    pub above: Option<u32>,
    /// Letter buckets: groups separated by spaces, corner groups after '/'
    #[arg(long, value_name = "SPEC")]
    pub buckets: Option<String>,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long, value_name = "T", value_parser = args::threads())]
    pub threads: Option<usize>,
    /// Run shard I of N of the classes (0 <= I < N)
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Directory for the shard's files
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Skip the classes already in the shard's file in --out
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Prove K random groups of classes and estimate the whole proof's CPU time
    #[arg(long, value_name = "K", conflicts_with_all = ["shard", "out", "resume"])]
    pub sample: Option<usize>,
    /// Seed for --sample [default: random]
    #[arg(long, value_name = "S", requires = "sample")]
    pub seed: Option<u64>,
    /// With --sample: sample classes, each proved on its own, instead of groups
    #[arg(long, requires = "sample")]
    pub per_class: bool,
}

/// The subcommands of `boggle prove`.
#[derive(Debug, Subcommand, Clone)]
pub enum ProveCommand {
    /// Combine shards' files and say whether the proof is complete
    Merge(MergeArgs),
}

/// Flags of `boggle prove merge`.
#[derive(Debug, Args, Clone)]
pub struct MergeArgs {
    /// Directories holding shard files
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
}

/// Runs `boggle prove` or `boggle prove merge`.
pub fn run(args: &ProveArgs) -> Result<(), CliError> {
    if let Some(ProveCommand::Merge(merge)) = &args.command {
        return run_merge(merge);
    }
    if args.rules.size.is_none() {
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
        .rules
        .resolve_with_dictionary(Preset::Classic, "prove")?;
    let dictionary = args.dict.load(&rules)?;
    let buckets = match &args.buckets {
        Some(spec) => Buckets::parse(spec).map_err(ProveError::Buckets)?,
        None => Buckets::default_for(rules.rows, rules.cols),
    };
    let rules_name = rules.preset.name();
    let mut settings = Settings::new(&rules, buckets, above)?;
    settings.grouped = !args.per_class;
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
    let class_count: usize = groups.iter().map(|g| g.classes.len()).sum();
    let progress = Progress::new();
    let started = Instant::now();

    if let Some(k) = args.sample {
        let seed = args.seed.unwrap_or_else(rand::random);
        let mut rng = crate::random::seeded(seed);
        let mut picked = groups.clone();
        crate::random::shuffle(&mut rng, &mut picked);
        picked.truncate(k);
        let records = run_watched(&progress, started, || {
            prove::prove_groups(
                dictionary.trie(),
                &settings,
                &picked,
                &|_| false,
                threads,
                &progress,
                |_| Ok(()),
            )
        })?;
        let mut out = BufWriter::new(io::stdout().lock());
        write_sample(&mut out, &records, &picked, groups.len(), class_count, seed)
            .map_err(Error::Output)?;
        out.flush().map_err(Error::Output)?;
        return super::play::finished(Ok(()));
    }

    let mine = shard.select(&groups);
    let mine_classes: usize = mine.iter().map(|g| g.classes.len()).sum();
    let (files, mut records) = match &args.out {
        Some(dir) => {
            let params = Params::new(
                &settings,
                rules_name,
                dictionary.words(),
                class_count as u64,
                shard.count,
            );
            let (files, done) = ShardFiles::open(dir, shard, &params, args.resume)?;
            (Some(files), done)
        }
        None => (None, Vec::new()),
    };
    let done: std::collections::HashSet<u64> = records.iter().map(|r| r.class).collect();
    if !done.is_empty() {
        report_line(&format!(
            "resuming: {} of {mine_classes} classes already done",
            done.len()
        ));
    }
    let fresh = run_watched(&progress, started, || {
        prove::prove_groups(
            dictionary.trie(),
            &settings,
            &mine,
            &|c| done.contains(&c),
            threads,
            &progress,
            |record| match &files {
                Some(files) => files.append(record),
                None => Ok(()),
            },
        )
    })?;
    let finished = records.len() + fresh.len() == mine_classes;
    records.extend(fresh);
    if let (Some(files), true) = (&files, finished) {
        files.finish(&records, above)?;
    }
    let summary = Summary::of(&records, above);
    let wall = started.elapsed().as_secs_f64();
    let mut out = BufWriter::new(io::stdout().lock());
    if !finished {
        out.flush().map_err(Error::Output)?;
        return Err(CliError::Unfinished {
            done: records.len(),
            total: mine_classes,
            resumable: files.is_some(),
        });
    }
    if shard.count > 1 {
        writeln!(
            out,
            "shard {}/{}: {} classes done; 'boggle prove merge' gives the proof",
            shard.index,
            shard.count,
            records.len()
        )
        .map_err(Error::Output)?;
    }
    write_summary(
        &mut out,
        &summary,
        above,
        classes.total(),
        wall,
        threads,
        shard.count > 1,
    )
    .map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    // Stopped by a signal: what was proved is written; the exit status says it is not all.
    super::play::finished(Ok(()))
}

/// Runs `work` on its own thread while showing progress, with Ctrl-C wired to stop it.
fn run_watched<F>(
    progress: &Progress,
    started: Instant,
    work: F,
) -> Result<Vec<ClassRecord>, CliError>
where
    F: FnOnce() -> Result<Vec<ClassRecord>, ProveError> + Send,
{
    // Ctrl-C, SIGTERM and SIGHUP stop the workers after their current class.
    signals::install(OnSignal::Finish);
    thread::scope(|scope| {
        let worker = scope.spawn(work);
        super::progress::watch(
            started,
            || status(progress, started),
            || worker.is_finished(),
            || progress.stop(),
        );
        worker.join()
    })
    .map_err(|_| CliError::WorkerFailed { work: "the proof" })?
    .map_err(CliError::from)
}

/// Elapsed time, classes done, CPU time and the best board so far.
fn status(progress: &Progress, started: Instant) -> String {
    let (done, total) = progress.classes();
    let best = progress
        .best()
        .map_or_else(String::new, |b| format!("  best {} {}", b.board, b.score));
    format!(
        "{:.1} s  {done}/{total} classes  {:.1} CPU-s  {} boards{best}",
        started.elapsed().as_secs_f64(),
        progress.cpu(),
        progress.boards()
    )
}

fn report_line(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The result: the `proved:` line, classes, bounds, time, then each board.
fn write_summary<W: Write>(
    out: &mut W,
    summary: &Summary,
    above: u32,
    before_symmetry: u64,
    wall: f64,
    threads: usize,
    partial: bool,
) -> io::Result<()> {
    let line = summary.proved_line(above);
    if partial {
        writeln!(out, "{}", line.replacen("proved:", "found:", 1))?;
    } else {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "classes: {} ({before_symmetry} before symmetry); {} with bound >= {above} searched inside; highest bound {}",
        summary.classes, summary.searched, summary.max_bound
    )?;
    writeln!(
        out,
        "time: {:.1} CPU-s in the classes, {wall:.1} s wall, {threads} {}",
        summary.cpu,
        if threads == 1 { "thread" } else { "threads" }
    )?;
    for board in &summary.boards {
        writeln!(out, "{} {}", board.score, board.board)?;
    }
    Ok(())
}

/// The `--sample` estimate: mean CPU per group times the groups, with a 95% interval.
fn write_sample<W: Write>(
    out: &mut W,
    records: &[ClassRecord],
    picked: &[crate::modes::prove::classes::Group],
    groups: usize,
    classes: usize,
    seed: u64,
) -> io::Result<()> {
    let cpu: std::collections::HashMap<u64, f64> =
        records.iter().map(|r| (r.class, r.cpu)).collect();
    // Only groups finished whole count (Ctrl-C may stop the sample early).
    let per_group: Vec<f64> = picked
        .iter()
        .filter(|g| g.classes.iter().all(|c| cpu.contains_key(c)))
        .map(|g| g.classes.iter().filter_map(|c| cpu.get(c)).sum())
        .collect();
    let k = per_group.len().max(1) as f64;
    let mean = per_group.iter().sum::<f64>() / k;
    let var = per_group.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (k - 1.0).max(1.0);
    let half = 1.96 * (var / k).sqrt();
    let hours = |per_group: f64| per_group * groups as f64 / 3600.0;
    writeln!(
        out,
        "sample: {} of {groups} groups ({} of {classes} classes; seed {seed}), {mean:.4} CPU-s per group on average",
        per_group.len(),
        records.len()
    )?;
    if per_group.len() < picked.len() {
        writeln!(
            out,
            "stopped early: {} of the {} groups asked for finished",
            per_group.len(),
            picked.len()
        )?;
    }
    writeln!(
        out,
        "estimate: {:.3} CPU-hours ({:.0} CPU-s) for the whole proof (95% interval {:.3} to {:.3} CPU-hours)",
        hours(mean),
        hours(mean) * 3600.0,
        hours((mean - half).max(0.0)),
        hours(mean + half)
    )?;
    let max = per_group.iter().copied().fold(0.0, f64::max);
    writeln!(
        out,
        "slowest sampled group: {max:.2} CPU-s; boards found in the sample: {}",
        records.iter().map(|r| r.boards.len()).sum::<usize>()
    )
}

fn run_merge(args: &MergeArgs) -> Result<(), CliError> {
    let merged = shard::merge(&args.dirs)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let p = &merged.params;
    writeln!(
        out,
        "{}x{} {} above {} in {} shards: {} of {} classes accounted for",
        p.rows, p.cols, p.rules, p.above, p.shards, merged.summary.classes, p.classes
    )
    .map_err(Error::Output)?;
    if merged.is_complete() {
        writeln!(out, "{}", merged.summary.proved_line(p.above)).map_err(Error::Output)?;
    } else {
        writeln!(
            out,
            "incomplete: {} shards unfinished {:?}, {} classes missing, {} lines misplaced or repeated",
            merged.unfinished.len(),
            merged.unfinished,
            merged.missing,
            merged.misplaced
        ).map_err(Error::Output)?;
        writeln!(
            out,
            "{}",
            merged
                .summary
                .proved_line(p.above)
                .replacen("proved:", "found so far:", 1)
        )
        .map_err(Error::Output)?;
    }
    writeln!(
        out,
        "highest bound {}; {:.1} CPU-s in the classes",
        merged.summary.max_bound, merged.summary.cpu
    )
    .map_err(Error::Output)?;
    for board in &merged.summary.boards {
        writeln!(out, "{} {}", board.score, board.board).map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)?;
    if merged.is_complete() {
        Ok(())
    } else {
        Err(CliError::Incomplete)
    }
}
