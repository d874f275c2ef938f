//! `boggle prove --sample K / --precision P / --budget SECONDS`: the whole
//! proof's CPU time estimated from groups drawn at random, stratum by
//! stratum ([`boggle_prove::sample`]), with the progress line and the
//! report, and each group's cost written to `--costs FILE` as it finishes.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::report::{self, SampleReport};
use super::{Job, ProveArgs, class_count, print, run_watched};
use crate::cli::CliError;
use boggle_prove::estimate::Interval;
use boggle_prove::sample::{Method, Sampler, Stops};
use boggle_prove::strata::{self, Strata};
use boggle_prove::{ClassRecord, ProveError, process_cpu};

/// What the workers share while a sample runs.
struct Running {
    sampler: Sampler,
    /// Each finished group: its index among the proof's groups and its cost.
    finished: Vec<(usize, f64)>,
    /// The estimate and its interval after the last group finished.
    last: Option<(f64, Interval)>,
    /// `--costs FILE`: each group's line as it finishes.
    costs: Option<(PathBuf, BufWriter<File>)>,
    /// Boards found in the sample.
    boards: usize,
    /// Classes proved in the sample.
    classes: usize,
}

impl Job {
    /// Draws groups (or classes, `--per-class`) until a stop rule holds,
    /// proves them, and reports the estimate of the whole proof's CPU time.
    pub(super) fn sample(&self, args: &ProveArgs) -> Result<(), CliError> {
        let seed = args.seed.unwrap_or_else(rand::random);
        let method = if args.simple {
            Method::Simple
        } else {
            Method::Stratified
        };
        // Single classes (`--per-class`) are too many for the pre-pass: they
        // are drawn as one stratum.
        let strata = if args.simple || args.per_class {
            Strata::one(self.groups.len())
        } else {
            strata::stratify(
                self.dictionary.trie(),
                &self.settings,
                &self.groups,
                self.threads,
            )
        };
        let stops = Stops {
            groups: args.sample,
            precision: args.precision,
            budget: args.budget,
        };
        let costs = match &args.costs {
            Some(path) => Some((path.clone(), open_costs(path, &strata)?)),
            None => None,
        };
        let running = Mutex::new(Running {
            sampler: Sampler::new(&strata, stops, method, seed),
            finished: Vec::new(),
            last: None,
            costs,
            boards: 0,
            classes: 0,
        });
        let draw = || {
            let mut running = running.lock().ok()?;
            let (index, _) = running.sampler.draw(process_cpu())?;
            self.groups.get(index).cloned()
        };
        let finished = |group: &boggle_prove::classes::Group, records: &[ClassRecord]| {
            self.finish_one(&running, &strata, group, records)
        };
        let status = || {
            running.lock().map_or_else(
                |_| String::new(),
                |r| report::sample_status(&self.progress, self.started, &r.sampler, r.last),
            )
        };
        run_watched(&self.progress, self.started, &status, || {
            boggle_prove::prove_drawn(
                self.dictionary.trie(),
                &self.settings,
                &|_| false,
                self.threads,
                &self.progress,
                &draw,
                &finished,
            )
        })?;
        let mut running = running
            .into_inner()
            .map_err(|_| CliError::WorkerFailed { work: "the sample" })?;
        if let Some((path, costs)) = &mut running.costs {
            costs.flush().map_err(|source| ProveError::Io {
                path: path.clone(),
                source,
            })?;
        }
        let sampled = SampleReport {
            finished: &running.finished,
            groups: &self.groups,
            classes: class_count(&self.groups),
            sampled_classes: running.classes,
            boards: running.boards,
            seed,
            grouped: self.settings.is_grouped(),
            strata: &strata,
            sampler: &running.sampler,
            estimate: running.sampler.estimate(),
            cpu: process_cpu(),
            stopped_by_signal: self.progress.is_stopped(),
        };
        print(|out| report::write_sample(out, &sampled))?;
        super::super::play::finished(Ok(()))
    }

    /// Counts a finished group in the sample, and writes its `--costs` line.
    fn finish_one(
        &self,
        running: &Mutex<Running>,
        strata: &Strata,
        group: &boggle_prove::classes::Group,
        records: &[ClassRecord],
    ) -> Result<(), ProveError> {
        let Ok(mut running) = running.lock() else {
            return Ok(());
        };
        let Some(index) = self.group_index(group.id) else {
            return Ok(());
        };
        // A group stopped half-way by a signal is not counted.
        if records.len() < group.classes.len() {
            return Ok(());
        }
        let cost: f64 = records.iter().map(|r| r.cpu).sum();
        let h = strata.of[index];
        running.sampler.finish(h, cost);
        running.finished.push((index, cost));
        running.boards += records.iter().map(|r| r.boards.len()).sum::<usize>();
        running.classes += records.len();
        running.last = running.sampler.estimate();
        if let Some((path, costs)) = &mut running.costs {
            // Flushed a line at a time: a long sample stopped by a signal or
            // a batch system's time limit keeps every cost it paid for.
            writeln!(
                costs,
                "{index}\t{}\t{h}\t{}\t{cost:.6}",
                group.id,
                records.len()
            )
            .and_then(|()| costs.flush())
            .map_err(|source| ProveError::Io {
                path: path.clone(),
                source,
            })?;
        }
        Ok(())
    }

    /// A group's index among the proof's groups (they are sorted by id).
    fn group_index(&self, id: u64) -> Option<usize> {
        self.groups.binary_search_by_key(&id, |g| g.id).ok()
    }
}

/// Creates `--costs FILE` and writes its header: the columns and the strata's sizes.
fn open_costs(path: &Path, strata: &Strata) -> Result<BufWriter<File>, CliError> {
    let io = |source| ProveError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = BufWriter::new(File::create(path).map_err(io)?);
    let sizes: Vec<String> = strata.sizes().iter().map(u64::to_string).collect();
    writeln!(file, "# strata sizes: {}", sizes.join(" ")).map_err(io)?;
    writeln!(file, "# index\tgroup\tstratum\tclasses\tcpu").map_err(io)?;
    Ok(file)
}
