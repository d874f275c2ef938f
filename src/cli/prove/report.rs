//! What `boggle prove` writes: the progress line on stderr (classes done,
//! CPU time, the best board so far, and a rough estimate of the time left),
//! the report on stdout (the `proved:` line, the best board as a grid,
//! classes, bounds, time, every board), and the `--sample` estimate.

use std::collections::HashMap;
use std::io::{self, Write};
use std::time::Instant;

use boggle_engine::plural;
use boggle_game::GameBoard;
use boggle_prove::classes::Group;
use boggle_prove::limits::duration;
use boggle_prove::{ClassRecord, Eta, FoundBoard, Progress, Settings, Summary};

/// Elapsed time, classes done, CPU time, the best board so far, and the
/// time left on `threads` threads, estimated from the groups done (rough:
/// group costs are heavy-tailed, so the range is wide and early guesses low).
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
            "  ~{} left (rough: {} to {})",
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
    let rules = &settings.rules;
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
    let above = settings.above;
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

/// What a `--sample` ran: the groups picked, out of all of them, and how
/// they were picked.
pub(super) struct Sampled<'a> {
    /// The groups proved, in the order picked.
    pub(super) picked: &'a [Group],
    /// Every group of the proof, in the order `--shard` deals them.
    pub(super) groups: &'a [Group],
    /// How many classes the whole proof has.
    pub(super) classes: usize,
    /// The seed that picked them.
    pub(super) seed: u64,
    /// Whether the groups are real ones (not single classes, `--per-class`),
    /// so that `--shard` can prove one alone.
    pub(super) grouped: bool,
}

/// The `--sample` estimate: mean CPU per group times the groups, with a
/// 95% interval, and the slowest group with the `--shard` that proves it
/// alone (heavy groups decide the mean, so they are the ones to study).
pub(super) fn write_sample<W: Write>(
    out: &mut W,
    records: &[ClassRecord],
    sampled: &Sampled<'_>,
) -> io::Result<()> {
    let Sampled {
        picked,
        classes,
        seed,
        ..
    } = *sampled;
    let groups = sampled.groups.len();
    let cpu: HashMap<u64, f64> = records.iter().map(|r| (r.class, r.cpu)).collect();
    // Only groups finished whole count (Ctrl-C may stop the sample early).
    let finished: Vec<(&Group, f64)> = picked
        .iter()
        .filter(|g| g.classes.iter().all(|c| cpu.contains_key(c)))
        .map(|g| (g, g.classes.iter().filter_map(|c| cpu.get(c)).sum()))
        .collect();
    let per_group: Vec<f64> = finished.iter().map(|&(_, t)| t).collect();
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
    let slowest = finished
        .iter()
        .copied()
        .reduce(|a, b| if b.1 > a.1 { b } else { a });
    let max = slowest.map_or(0.0, |(_, t)| t);
    // `--shard I/N`, N the number of groups, deals group I alone.
    let alone = slowest
        .filter(|_| sampled.grouped)
        .and_then(|(group, _)| sampled.groups.iter().position(|g| g.id == group.id))
        .map_or_else(String::new, |i| {
            format!(" (--shard {i}/{groups} proves it alone)")
        });
    writeln!(
        out,
        "slowest sampled group: {max:.2} CPU-s{alone}; boards found in the sample: {}",
        records.iter().map(|r| r.boards.len()).sum::<usize>()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use boggle_engine::SearchRules;
    use boggle_prove::classes::Buckets;

    /// Issue 46, item 13: the time left counts down between groups, and
    /// says it is only a guess once a group runs longer than one took on average.
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
        assert_eq!(after(0), "  ~6.0 min left (rough: 4.0 min to 8.0 min)");
        assert_eq!(after(30), "  ~5.5 min left (rough: 3.5 min to 7.5 min)");
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

    #[test]
    fn the_sample_names_the_shard_that_proves_its_slowest_group_alone() {
        let group = |id: u64, classes: &[u64]| Group {
            id,
            classes: classes.to_vec(),
        };
        let groups = [group(10, &[1, 2]), group(11, &[3]), group(12, &[4, 5])];
        let record = |class: u64, cpu: f64| ClassRecord {
            class,
            bound: 0,
            boards: Vec::new(),
            cpu,
        };
        // Group 12 (the third dealt) costs 3 + 4 CPU-s, group 11 6.
        let records = [record(3, 6.0), record(4, 3.0), record(5, 4.0)];
        let picked = [groups[1].clone(), groups[2].clone()];
        let sample = |grouped: bool| {
            let sampled = Sampled {
                picked: &picked,
                groups: &groups,
                classes: 5,
                seed: 9,
                grouped,
            };
            let mut out = Vec::new();
            write_sample(&mut out, &records, &sampled).expect("written");
            String::from_utf8(out).expect("text")
        };
        let text = sample(true);
        assert!(
            text.starts_with("sample: 2 of 3 groups (3 of 5 classes; seed 9), 6.5000 CPU-s"),
            "{text}"
        );
        assert!(
            text.ends_with(
                "slowest sampled group: 7.00 CPU-s (--shard 2/3 proves it alone); boards found in the sample: 0\n"
            ),
            "{text}"
        );
        assert!(
            sample(false)
                .ends_with("slowest sampled group: 7.00 CPU-s; boards found in the sample: 0\n"),
            "single classes are not a shard's groups"
        );
    }
}
