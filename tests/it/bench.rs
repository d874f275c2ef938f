//! `boggle bench` beyond its totals (solve.rs): `--repeat K` passes over
//! the same boards, and `--count N` rolled in chunks so memory stays flat.
//! No assertion here is about speed.

use crate::common;

use std::process::{Command, Stdio};

use common::{Killed, TempDir, assert_contains, run_boggle, wait_until};

const WORDS: &str = "TEA\nEAT\nATE\nTEN\nNET\nTAN\nANT\nSEAT\nEATS\nTEAS\nNEST\nSENT\nRATE\nTEAR\n";

fn dir() -> TempDir {
    let boards = "seatrnetaesntaer\nabcdefghijklmnop\nteaseatsnestrate\n";
    TempDir::with("bench", &[("dict.txt", WORDS), ("boards.txt", boards)])
}

/// The fields that must not depend on timing: boards, total score, words per board.
fn totals(dir: &TempDir, args: &[&str]) -> (String, String, String) {
    let mut all = vec!["bench", "--dict", "dict.txt"];
    all.extend_from_slice(args);
    let run = run_boggle(dir.path(), &all, b"");
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    let fields: Vec<&str> = run.stdout.split_whitespace().collect();
    assert_eq!(fields.len(), 6, "{}", run.stdout);
    assert!(fields[2].starts_with("seconds=") && fields[3].starts_with("boards_per_sec="));
    (
        fields[0].to_string(),
        fields[1].to_string(),
        fields[4].to_string(),
    )
}

#[test]
fn repeat_reports_one_pass_of_totals() {
    let dir = dir();
    let once = totals(&dir, &["--boards", "boards.txt"]);
    assert_eq!(once.0, "boards=3");
    assert_ne!(once.1, "total_score=0");
    assert_eq!(
        totals(&dir, &["--boards", "boards.txt", "--repeat", "4"]),
        once
    );
    assert_eq!(
        totals(
            &dir,
            &["--boards", "boards.txt", "--repeat", "3", "--threads", "2"]
        ),
        once
    );
    let rolled = totals(&dir, &["--count", "500", "--seed", "9"]);
    assert_eq!(rolled.0, "boards=500");
    assert_eq!(
        totals(&dir, &["--count", "500", "--seed", "9", "--repeat", "3"]),
        rolled
    );
}

#[test]
fn repeat_outside_its_range_is_a_usage_error() {
    let dir = dir();
    for k in ["0", "1001", "-1", "two"] {
        let run = run_boggle(
            dir.path(),
            &["bench", "--dict", "dict.txt", "--count", "5", "--repeat", k],
            b"",
        );
        assert_eq!(run.code, Some(2), "--repeat {k}: {}", run.stderr);
    }
}

/// Counts that span several roll chunks give the same totals on any number of
/// threads (each chunk is split over the threads; the boards do not change).
#[test]
fn rolled_chunks_do_not_change_totals() {
    let dir = dir();
    let one = totals(&dir, &["--count", "140000", "--seed", "3"]);
    assert_eq!(one.0, "boards=140000");
    assert_eq!(
        totals(
            &dir,
            &["--count", "140000", "--seed", "3", "--threads", "2"]
        ),
        one
    );
}

/// Every rolled board used to be kept, so `--count 2^64-1`
/// panicked ("capacity overflow") and a billion boards asked for tens of GiB.
/// Rolled in chunks, both run in a 1 GiB address space until stopped: each
/// is still running once it has spent a CPU-second solving (dozens of
/// chunks), and its peak resident memory stays under a tenth of that space.
#[cfg(target_os = "linux")]
#[test]
fn huge_counts_run_in_flat_memory() {
    let dir = dir();
    for count in ["18446744073709551615", "1000000000"] {
        let script =
            format!("ulimit -v 1048576 && exec \"$0\" bench --dict dict.txt --count {count}");
        let mut child = Killed(
            Command::new("sh")
                .args(["-c", &script, crate::common::BOGGLE])
                .current_dir(dir.path())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("sh runs"),
        );
        // `exec` keeps the process id: /proc/PID is the bench itself.
        let worked = cpu_seconds_reached(&mut child, 1.0);
        let peak_kib = peak_resident_kib(child.id());
        let status = child.try_wait().expect("the child can be polled");
        if status.is_none() {
            child.kill().expect("the child can be stopped");
        }
        let mut stderr = String::new();
        let mut err = child.stderr.take().expect("stderr is piped");
        std::io::Read::read_to_string(&mut err, &mut stderr).expect("stderr reads");
        assert!(worked, "--count {count} stopped ({status:?}): {stderr}");
        assert!(
            status.is_none(),
            "--count {count} stopped ({status:?}): {stderr}"
        );
        assert!(
            peak_kib.is_some_and(|kib| kib < 100 * 1024),
            "--count {count}: peak resident {peak_kib:?} KiB"
        );
    }
}

/// Waits until `child` has spent `seconds` of CPU time, polling its
/// /proc/PID/stat; false if it exits first. Fails after
/// [`HANG_GUARD`](crate::common::HANG_GUARD) (a guard against a stalled
/// child only).
#[cfg(target_os = "linux")]
fn cpu_seconds_reached(child: &mut std::process::Child, seconds: f64) -> bool {
    // Clock ticks per second for utime and stime: 100 on every Linux ABI
    // the tests run on (USER_HZ).
    let ticks = (seconds * 100.0) as u64;
    let spent = || -> Option<bool> {
        if child.try_wait().expect("the child can be polled").is_some() {
            return Some(false);
        }
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id()))
            .expect("/proc/PID/stat is readable");
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
        let spent: u64 = fields[11..13]
            .iter()
            .filter_map(|f| f.parse::<u64>().ok())
            .sum();
        (spent >= ticks).then_some(true)
    };
    wait_until(spent, || "the bench got no CPU-second".to_string())
}

/// The peak resident memory of process `pid` (VmHWM in /proc/PID/status), in KiB.
#[cfg(target_os = "linux")]
fn peak_resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `--simd` at every level this processor has gives the same totals as
/// `auto` (the walkers differ, the words do not), and a name that is no
/// level is refused in one line, exit status 2. (A level the processor
/// lacks is refused through the same function: src/cli/error_tests.rs.)
#[test]
fn every_simd_level_the_processor_has_gives_the_same_totals() {
    let dir = dir();
    let auto = totals(&dir, &["--count", "300", "--seed", "4"]);
    for level in boggle_engine::cpu::Simd::present_levels() {
        let args = ["--count", "300", "--seed", "4", "--simd", level.name()];
        assert_eq!(totals(&dir, &args), auto, "{level:?}");
    }
    let run = run_boggle(
        dir.path(),
        &["bench", "--dict", "dict.txt", "--simd", "sse9"],
        b"",
    );
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    assert_contains(&run.stderr, "--simd");
}
