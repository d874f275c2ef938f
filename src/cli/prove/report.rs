//! What `boggle prove` writes: the progress line on stderr (classes done,
//! CPU time, the best board so far, and the time left with its 95%
//! interval, or a sample's estimate so far), the report on stdout (the
//! `proved:` line, the best board as a grid, classes, bounds, time, every
//! board), and a sample's estimate of the whole proof.

#![expect(
    clippy::disallowed_methods,
    reason = "the report says how long a run has taken"
)]

use std::io::{self, Write};
use std::time::Instant;

use boggle_game::GameBoard;
use boggle_game::text::plural;
use boggle_prove::classes::Group;
use boggle_prove::estimate::Interval;
use boggle_prove::limits::duration;
use boggle_prove::sample::{Method, Sampler, Stopped};
use boggle_prove::strata::Strata;
use boggle_prove::{Eta, FoundBoard, Progress, Settings, Summary};

/// Elapsed time, classes done, CPU time, the best board so far, and the
/// time left on `threads` threads, estimated from the groups done as a
/// sample estimates a proof's cost (stratified, with an interval spanning
/// the bootstrap-t and log-normal ones).
pub(super) fn status(progress: &Progress, started: Instant, threads: usize) -> String {
    let (done, total) = progress.classes();
    let best = progress
        .best()
        .map_or_else(String::new, |b| format!("  best {} {}", b.board, b.score));
    let left = progress
        .eta(threads)
        .map_or_else(String::new, |eta| time_left(&eta, Instant::now()));
    format!(
        "{:.1} s  {done}/{total} classes  {:.1} CPU-s  {} boards{best}{left}",
        started.elapsed().as_secs_f64(),
        progress.cpu(),
        progress.boards()
    )
}

/// The time left as of `now`: the estimate made when the last group
/// finished less the time since, so the line (redrawn on a timer) counts
/// down between groups. Once no group has finished for longer than one takes
/// on average, the groups running take longer than the estimate assumed:
/// the line says it is only a guess, and why.
fn time_left(eta: &Eta, now: Instant) -> String {
    let since = now.saturating_duration_since(eta.at).as_secs_f64();
    let less = |seconds: f64| duration((seconds - since).max(0.0));
    if since > eta.mean {
        format!(
            "  ~{} left (a guess: no group has finished for {}; one took {} on average)",
            less(eta.seconds),
            duration(since),
            duration(eta.mean)
        )
    } else {
        format!(
            "  ~{} left (95%: {} to {})",
            less(eta.seconds),
            less(eta.range.0),
            less(eta.range.1)
        )
    }
}

/// A line on stderr (what `--resume` found, what a recheck does).
pub(super) fn report_line(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The board as a grid, one row a line, each indented by two spaces (`Qu`
/// cells padded so the columns line up); nothing if its letters do not
/// make a board of the settings' size (a record's boards are checked to).
pub(super) fn write_grid<W: Write>(
    out: &mut W,
    board: &FoundBoard,
    settings: &Settings,
) -> io::Result<()> {
    let rules = settings.rules();
    let Ok(grid) = GameBoard::from_letters(&board.board, rules.rows, rules.cols, rules.q) else {
        return Ok(());
    };
    for row in grid.show_board().lines() {
        writeln!(out, "  {row}")?;
    }
    Ok(())
}

/// What a summary covers: the whole proof, or one shard of several (whose
/// boards are found, not proved the best until `boggle prove merge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Covers {
    /// Every class of the proof.
    AllClasses,
    /// One shard's classes.
    OneShard,
}

/// The result: the `proved:` line (`found:` for one shard), the best board
/// as a grid, classes, bounds, time, then each board.
pub(super) fn write_summary<W: Write>(
    out: &mut W,
    summary: &Summary,
    settings: &Settings,
    before_symmetry: u64,
    wall: f64,
    threads: usize,
    covers: Covers,
) -> io::Result<()> {
    let above = settings.above();
    let line = summary.proved_line(above);
    match covers {
        Covers::OneShard => writeln!(out, "{}", line.replacen("proved:", "found:", 1))?,
        Covers::AllClasses => writeln!(out, "{line}")?,
    }
    if let Some(best) = summary.boards.first() {
        write_grid(out, best, settings)?;
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
        plural(threads, "thread", "threads")
    )?;
    for board in &summary.boards {
        writeln!(out, "{} {}", board.score, board.board)?;
    }
    Ok(())
}

/// A sample's progress: elapsed time, groups and classes done, CPU time,
/// and the estimate so far with its interval.
pub(super) fn sample_status(
    progress: &Progress,
    started: Instant,
    sampler: &Sampler,
    last: Option<(f64, Interval)>,
) -> String {
    let (classes, _) = progress.classes();
    let estimate = last.map_or_else(String::new, |(total, interval)| {
        format!(
            "  estimate {} CPU-hours (95%: {} to {})",
            hours(total),
            hours(interval.low),
            hours(interval.high)
        )
    });
    format!(
        "{:.1} s  {} groups ({classes} classes) sampled  {:.1} CPU-s{estimate}",
        started.elapsed().as_secs_f64(),
        sampler.sample().sampled(),
        progress.cpu(),
    )
}

/// CPU seconds as CPU-hours, to three decimals.
fn hours(seconds: f64) -> String {
    format!("{:.3}", seconds / 3600.0)
}

/// What a sample ran and found, for its report.
pub(super) struct SampleReport<'a> {
    /// Each group finished: its index among the proof's groups and its CPU seconds.
    pub(super) finished: &'a [(usize, f64)],
    /// Every group of the proof, in the order `--shard` deals them.
    pub(super) groups: &'a [Group],
    /// How many classes the whole proof has.
    pub(super) classes: usize,
    /// How many classes the sample proved.
    pub(super) sampled_classes: usize,
    /// Boards found in the sample.
    pub(super) boards: usize,
    /// The seed that drew them.
    pub(super) seed: u64,
    /// Whether the groups are real ones (not single classes, `--per-class`),
    /// so that `--shard` can prove one alone.
    pub(super) grouped: bool,
    /// The strata the groups were drawn from.
    pub(super) strata: &'a Strata,
    /// The sampler, with its costs by stratum and what stopped it.
    pub(super) sampler: &'a Sampler,
    /// The estimated total and its interval.
    pub(super) estimate: Option<(f64, Interval)>,
    /// The CPU seconds the process spent in all.
    pub(super) cpu: f64,
    /// Whether a signal stopped the sample.
    pub(super) stopped_by_signal: bool,
}

/// A sample's report: the strata, the sample, the estimate with its 95%
/// interval, the slowest group with the `--shard` that proves it alone
/// (heavy groups decide the total, so they are the ones to study), and,
/// last, what stopped the sample.
pub(super) fn write_sample<W: Write>(out: &mut W, report: &SampleReport<'_>) -> io::Result<()> {
    let groups = report.groups.len();
    let sample = report.sampler.sample();
    let n = report.finished.len();
    if report.strata.count > 1 {
        let sizes: Vec<String> = report.strata.sizes().iter().map(u64::to_string).collect();
        writeln!(
            out,
            "strata: {} by the mean score of {} random boards a group, of {} groups; the pre-pass took {:.1} CPU-s",
            report.strata.count,
            boggle_prove::strata::BOARDS,
            sizes.join(", "),
            report.strata.cpu
        )?;
    }
    let mean = sample.spent() / n.max(1) as f64;
    let by_stratum = if report.strata.count > 1 {
        let drawn: Vec<String> = sample
            .strata()
            .iter()
            .map(|s| s.costs.len().to_string())
            .collect();
        format!("; by stratum {}", drawn.join(", "))
    } else {
        String::new()
    };
    writeln!(
        out,
        "sample: {n} of {groups} groups ({} of {} classes; seed {}), {mean:.4} CPU-s per group on average{by_stratum}",
        report.sampled_classes, report.classes, report.seed
    )?;
    match report.estimate {
        Some((total, interval)) => writeln!(
            out,
            "estimate: {} CPU-hours ({total:.0} CPU-s) for the whole proof (95% interval {} to {} CPU-hours, {})",
            hours(total),
            hours(interval.low),
            hours(interval.high),
            match report.sampler.method() {
                Method::Stratified => "bootstrap-t and log-normal",
                Method::Simple => "as if costs were normal",
            }
        )?,
        None => writeln!(out, "estimate: none (fewer than two groups finished)")?,
    }
    let slowest = report
        .finished
        .iter()
        .copied()
        .reduce(|a, b| if b.1 > a.1 { b } else { a });
    let max = slowest.map_or(0.0, |(_, t)| t);
    // `--shard I/N`, N the number of groups, deals group I alone.
    let alone = slowest
        .filter(|_| report.grouped)
        .map_or_else(String::new, |(i, _)| {
            format!(" (--shard {i}/{groups} proves it alone)")
        });
    writeln!(
        out,
        "slowest sampled group: {max:.2} CPU-s{alone}; boards found in the sample: {}",
        report.boards
    )?;
    writeln!(out, "{}", stop_line(report, n))
}

/// The last line of a sample's report: what stopped it, and the CPU time spent in all.
fn stop_line(report: &SampleReport<'_>, n: usize) -> String {
    let spent = format!("{:.1} CPU-s spent in all", report.cpu);
    if report.stopped_by_signal {
        return format!(
            "stopped by a signal after {n} groups; {spent} (groups in hand were left out)"
        );
    }
    match report.sampler.stopped() {
        Some(Stopped::Groups(k)) => format!("stopped by --sample {k}: {k} groups drawn; {spent}"),
        Some(Stopped::Precision(p)) => {
            let reached = report
                .estimate
                .map_or(f64::INFINITY, |(total, i)| i.relative_half_width(total));
            format!(
                "stopped by --precision {p}: the interval within {:.1}% of the estimate; {spent}",
                reached * 100.0
            )
        }
        Some(Stopped::Budget(b)) => format!(
            "stopped by --budget {b}: {spent} (the groups in hand when it was reached were finished)"
        ),
        Some(Stopped::Everything) | None => {
            format!("stopped: every group was drawn; {spent}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boggle_engine::SearchRules;
    use boggle_prove::classes::Buckets;

    /// The time left counts down between groups, and says it is only a
    /// guess once a group runs longer than one took on average.
    #[test]
    fn the_time_left_counts_down_and_says_when_it_is_a_guess() {
        let at = Instant::now();
        let eta = Eta {
            cpu: 720.0,
            seconds: 360.0,
            range: (240.0, 480.0),
            mean: 60.0,
            at,
        };
        let after = |seconds| time_left(&eta, at + std::time::Duration::from_secs(seconds));
        assert_eq!(after(0), "  ~6.0 min left (95%: 4.0 min to 8.0 min)");
        assert_eq!(after(30), "  ~5.5 min left (95%: 3.5 min to 7.5 min)");
        assert_eq!(
            after(180),
            "  ~3.0 min left (a guess: no group has finished for 3.0 min; one took 1.0 min on average)"
        );
        assert!(
            after(600).starts_with("  ~0 s left (a guess"),
            "{}",
            after(600)
        );
    }

    #[test]
    fn the_best_board_is_shown_as_a_grid_too() {
        let settings = Settings::new(SearchRules::standard(3, 3), Buckets::default_for(3, 3), 500)
            .expect("3x3");
        let summary = Summary {
            classes: 639,
            searched: 312,
            max_bound: 1334,
            boards: vec![FoundBoard {
                score: 545,
                board: "DESLATPER".into(),
            }],
            cpu: 17.7,
        };
        let mut out = Vec::new();
        write_summary(
            &mut out,
            &summary,
            &settings,
            3888,
            17.7,
            1,
            Covers::AllClasses,
        )
        .expect("written");
        let text = String::from_utf8(out).expect("text");
        assert!(
            text.starts_with(
                "proved: 1 boards score >= 500; best: DESLATPER 545\n  D E S\n  L A T\n  P E R\nclasses: "
            ),
            "{text}"
        );
        let mut out = Vec::new();
        let qu = FoundBoard {
            score: 1,
            board: "QUABCDEFGH".into(),
        };
        write_grid(&mut out, &qu, &settings).expect("written");
        assert_eq!(
            String::from_utf8(out).expect("text"),
            "  Qu A  B\n  C  D  E\n  F  G  H\n"
        );
    }

    /// A sample of three groups of costs 6, 7 (3 + 4) and 2 from two
    /// strata, reported as a user sees it once `change` has had its say
    /// (single classes instead of groups, a signal).
    fn sample_report(change: impl FnOnce(&mut SampleReport<'_>)) -> String {
        use boggle_prove::sample::Stops;
        let group = |id: u64, classes: &[u64]| Group {
            id,
            classes: classes.to_vec(),
        };
        let groups = [group(10, &[1, 2]), group(11, &[3]), group(12, &[4, 5])];
        let strata = Strata {
            of: vec![0, 0, 1],
            count: 2,
            cpu: 0.25,
        };
        let stops = Stops {
            groups: Some(3),
            ..Stops::default()
        };
        let mut sampler = Sampler::new(&strata, stops, Method::Stratified, 9);
        let mut finished = Vec::new();
        while let Some((index, h)) = sampler.draw(0.0) {
            let cost = [2.0, 6.0, 7.0][index];
            sampler.finish(h, cost);
            finished.push((index, cost));
        }
        let mut report = SampleReport {
            finished: &finished,
            groups: &groups,
            classes: 5,
            sampled_classes: 5,
            boards: 0,
            seed: 9,
            grouped: true,
            strata: &strata,
            sampler: &sampler,
            estimate: sampler.estimate(),
            cpu: 16.5,
            stopped_by_signal: false,
        };
        change(&mut report);
        let mut out = Vec::new();
        write_sample(&mut out, &report).expect("written");
        String::from_utf8(out).expect("text")
    }

    #[test]
    fn the_sample_names_the_shard_that_proves_its_slowest_group_alone() {
        let text = sample_report(|_| {});
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "strata: 2 by the mean score of 32 random boards a group, of 2, 1 groups; the pre-pass took 0.2 CPU-s"
        );
        assert_eq!(
            lines[1],
            "sample: 3 of 3 groups (5 of 5 classes; seed 9), 5.0000 CPU-s per group on average; by stratum 2, 1"
        );
        // Every group drawn: the estimate is their total, exactly.
        assert!(
            lines[2].starts_with(
                "estimate: 0.004 CPU-hours (15 CPU-s) for the whole proof (95% interval"
            ),
            "{text}"
        );
        assert_eq!(
            lines[3],
            "slowest sampled group: 7.00 CPU-s (--shard 2/3 proves it alone); boards found in the sample: 0"
        );
        assert_eq!(
            lines[4],
            "stopped by --sample 3: 3 groups drawn; 16.5 CPU-s spent in all"
        );
        assert_eq!(lines.len(), 5, "{text}");
        assert!(
            sample_report(|r| r.grouped = false)
                .contains("\nslowest sampled group: 7.00 CPU-s; boards found in the sample: 0\n"),
            "single classes are not a shard's groups"
        );
        assert!(
            sample_report(|r| r.stopped_by_signal = true).ends_with(
                "\nstopped by a signal after 3 groups; 16.5 CPU-s spent in all (groups in hand were left out)\n"
            ),
            "{}",
            sample_report(|r| r.stopped_by_signal = true)
        );
    }
}
