//! The bounds the prover puts on everything it is given, from flags or from
//! a shard's files: how many classes a proof may have (estimated before
//! their table is built), how large each kind of shard file and each of its
//! lines may be, and how long the settings' text fields may be.
//!
//! The table of classes is the one part of a run whose size the flags decide
//! alone: `Classes::canonical` walks every class id before symmetry, and a
//! run keeps an id, a record and a place in the set of classes done for each
//! canonical class. [`Estimate`] says what that costs before any of it is
//! built, and a run over 2^30 classes or 4 GiB of table is refused with
//! the estimate. The provers' own memory (a group's word paths and trees, per thread) depends on the
//! dictionary and the board, not on these numbers; `docs/PROVE.md` gives it
//! by board size.

use std::fmt;

use num_format::{Locale, ToFormattedString};

/// The most classes before symmetry: finding the canonical ones walks them
/// all, at about 160 ns each (about three minutes at the cap). The default
/// 4x4 buckets make 8.5 million.
pub(crate) const MAX_BEFORE_SYMMETRY: u64 = 1 << 30;

/// Memory a run keeps per canonical class, generously: its id in its group
/// (and in the list the groups are made from), its record, and its place in
/// the set of classes done. Measured: about 40 bytes a class while the
/// table is built.
pub(crate) const BYTES_PER_CLASS: u64 = 128;

/// The most memory the table of classes and their records may take, as
/// [`Estimate`] reckons it (4 GiB: 33.5 million classes up to symmetry).
pub(crate) const MAX_TABLE_BYTES: u64 = 4 << 30;

/// The largest `shard-I-of-N.params.json` read (one is about 500 bytes).
pub(crate) const MAX_PARAMS_BYTES: u64 = 64 << 10;

/// The largest `shard-I-of-N.done` read (one is about 100 bytes).
pub(crate) const MAX_DONE_BYTES: u64 = 64 << 10;

/// The largest `shard-I-of-N.ndjson` read: 4 GiB (the whole 4x4 proof's
/// records, in one shard, are about 100 MB).
pub(crate) const MAX_RECORDS_BYTES: u64 = 4 << 30;

/// The longest line of a `shard-I-of-N.ndjson`: 16 MiB, about 400,000
/// boards of 16 letters in one class.
pub(crate) const MAX_LINE_BYTES: usize = 16 << 20;

/// The longest text field of the settings (the dictionary's path; the
/// others are far shorter).
pub(crate) const MAX_TEXT_BYTES: usize = 4096;

/// What a proof's table of classes would cost, known before it is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// Board rows.
    pub(crate) rows: usize,
    /// Board columns.
    pub(crate) cols: usize,
    /// Classes before symmetry (`u64::MAX` when they overflow it).
    pub(crate) before_symmetry: u64,
    /// Classes up to symmetry, about (before symmetry over the symmetries).
    pub(crate) classes: u64,
    /// Memory for their table and records, about.
    pub(crate) bytes: u64,
}

impl Estimate {
    /// The estimate for `before_symmetry` classes of a rows x cols board with
    /// `symmetries` symmetries (the identity included).
    pub fn new(rows: usize, cols: usize, before_symmetry: u64, symmetries: usize) -> Estimate {
        let symmetries = (symmetries as u64).max(1);
        let classes = before_symmetry.div_ceil(symmetries);
        Estimate {
            rows,
            cols,
            before_symmetry,
            classes,
            bytes: classes.saturating_mul(BYTES_PER_CLASS),
        }
    }

    /// Whether a run of this size may be built.
    pub(crate) fn fits(&self) -> bool {
        self.before_symmetry <= MAX_BEFORE_SYMMETRY && self.bytes <= MAX_TABLE_BYTES
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let before = if self.before_symmetry == u64::MAX {
            "more than 18 billion billion".to_string()
        } else {
            self.before_symmetry.to_formatted_string(&Locale::en)
        };
        write!(
            f,
            "the buckets make {before} classes of {}x{} boards (about {} up to symmetry), \
             whose table would take about {} and {} to build; boggle prove takes at most {} \
             classes before symmetry and {} of table",
            self.rows,
            self.cols,
            self.classes.to_formatted_string(&Locale::en),
            bytes(self.bytes),
            duration(self.before_symmetry as f64 * 160e-9),
            MAX_BEFORE_SYMMETRY.to_formatted_string(&Locale::en),
            bytes(MAX_TABLE_BYTES),
        )
    }
}

/// A number of bytes in the largest unit that keeps it at least 1: `4 GiB`.
pub(crate) fn bytes(n: u64) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 || value >= 10.0 || value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Seconds as a person reads them: `45 s`, `3.2 min`, `5.1 h`, `12 days`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds >= 1e9 {
        "years".to_string()
    } else if seconds < 60.0 {
        format!("{seconds:.0} s")
    } else if seconds < 3600.0 {
        format!("{:.1} min", seconds / 60.0)
    } else if seconds < 2.0 * 86400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.0} days", seconds / 86400.0)
    }
}

/// `text` with every control character and every character outside ASCII
/// written as an escape (`\u{1b}`), so that nothing read from a file can
/// reach a terminal as anything but printable text.
pub(crate) fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c.to_string()
            } else {
                c.escape_unicode().to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(bytes(500), "500 bytes");
        assert_eq!(bytes(4 << 30), "4 GiB");
        assert_eq!(bytes(3 << 19), "1.5 MiB");
        assert_eq!(duration(45.0), "45 s");
        assert_eq!(duration(600.0), "10.0 min");
        assert_eq!(printable("A\u{1b}[31mB\u{e9}"), "A\\u{1b}[31mB\\u{e9}");
    }

    #[test]
    fn the_estimate_refuses_26_single_letters_on_3x3_and_takes_4x4() {
        let huge = Estimate::new(3, 3, 26u64.pow(9), 8);
        assert!(!huge.fits());
        let text = huge.to_string();
        assert!(text.contains("5,429,503,678,976 classes of 3x3"), "{text}");
        // The default 4x4 buckets: 2 on each corner, 3 elsewhere.
        let default = Estimate::new(4, 4, 16 * 3u64.pow(12), 8);
        assert!(default.fits(), "{default}");
        assert!(!Estimate::new(4, 4, u64::MAX, 8).fits());
    }
}
