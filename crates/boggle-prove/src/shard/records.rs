//! A shard's records, `shard-I-of-N.ndjson`, one line per finished class,
//! and its completion marker, `shard-I-of-N.done`; and the checks every
//! line passes before it is believed ([`Checker`]).
//!
//! A line is `{"class":ID,"bound":B,"boards":[{"board":"...","score":S}],"cpu":SECONDS}`.
//! It is believed when its class is a canonical class of the proof that the
//! shard owns, and every board is one letter per cell (`QU` for `Q` under Qu
//! rules), falls in the class's buckets, is the form of itself that sorts
//! first, is there once, scores exactly what it claims with the word list
//! (it is scored again), reaches the target and is within the class's bound.
//! A class on two lines is read once when the lines agree (bound and boards:
//! two runs of a shard that overlapped), and is an error when they do not.
//!
//! What the checks cannot see is a class whose bound was lowered, or whose
//! boards were taken out, consistently: only proving the class again can
//! (`merge`'s recheck). The marker's counts and digest of the records catch
//! a file changed after its shard finished, unless the marker was made again
//! too, as `--resume` does for whatever records it finds.

use std::collections::{BTreeMap, HashSet};
use std::io::BufRead;
use std::path::Path;

use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_engine::{Face, QReads};
use serde::{Deserialize, Serialize};

use super::files::{Tail, for_each_line};
use crate::classes::{Classes, Group};
use crate::error::{BadBoard, BadRecord, ProveError};
use crate::limits::MAX_LINE_BYTES;
use crate::{ClassRecord, FoundBoard, Settings};

/// One ndjson line: a finished class.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Line {
    class: u64,
    bound: u32,
    boards: Vec<Board>,
    cpu: f64,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Board {
    board: String,
    score: u32,
}

impl From<&ClassRecord> for Line {
    fn from(record: &ClassRecord) -> Line {
        Line {
            class: record.class,
            bound: record.bound,
            boards: record
                .boards
                .iter()
                .map(|b| Board {
                    board: b.board.clone(),
                    score: b.score,
                })
                .collect(),
            cpu: record.cpu,
        }
    }
}

/// The completion marker's content.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Done {
    /// Classes in the records.
    pub classes: u64,
    /// Boards in the records.
    pub boards: u64,
    /// CPU seconds over the records.
    pub cpu: f64,
    /// [`digest`] of the records.
    pub digest: String,
}

impl Done {
    /// The marker of a shard whose records are `records`.
    pub(super) fn of<'a>(records: impl IntoIterator<Item = &'a ClassRecord>) -> Done {
        let mut sorted: Vec<&ClassRecord> = records.into_iter().collect();
        sorted.sort_by_key(|r| r.class);
        Done {
            classes: sorted.len() as u64,
            boards: sorted.iter().map(|r| r.boards.len() as u64).sum(),
            cpu: sorted.iter().map(|r| r.cpu).sum(),
            digest: digest(sorted.iter().copied()),
        }
    }

    /// Classes, boards and digest, to compare.
    pub(super) fn counts(&self) -> (u64, u64, String) {
        (self.classes, self.boards, self.digest.clone())
    }
}

/// FNV-1a over records in class order, each as `class bound board:score...`
/// (boards best first; the CPU time left out, as it differs between runs).
pub(crate) fn digest<'a>(records: impl IntoIterator<Item = &'a ClassRecord>) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |text: &str| {
        for byte in text.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for record in records {
        add(&format!("{} {}", record.class, record.bound));
        for board in &record.boards {
            add(&format!(" {}:{}", board.board, board.score));
        }
        add("\n");
    }
    format!("{hash:016x}")
}

/// Checks the lines of a proof's shards (see the module's doc): owns a
/// solver to score each board again.
pub struct Checker<'a> {
    settings: &'a Settings,
    classes: &'a Classes,
    groups: &'a [Group],
    shards: u32,
    searcher: Searcher<'a>,
    faces: Vec<Face>,
}

impl<'a> Checker<'a> {
    /// A checker for the proof of `settings` with the word list `trie`, whose
    /// `classes` make `groups`, dealt over `shards` shards.
    pub fn new(
        trie: &'a Trie,
        settings: &'a Settings,
        classes: &'a Classes,
        groups: &'a [Group],
        shards: u32,
    ) -> Checker<'a> {
        Checker {
            settings,
            classes,
            groups,
            shards: shards.max(1),
            searcher: Searcher::new(trie, settings.rules),
            faces: vec![Face::BLANK; settings.rules.cells()],
        }
    }

    /// The shard that owns `class`, if it is a canonical class of the proof.
    pub fn owner(&self, class: u64) -> Option<u32> {
        if class >= self.classes.total() {
            return None;
        }
        let group = self.classes.group_of(&self.classes.digits(class));
        let k = self.groups.binary_search_by_key(&group, |g| g.id).ok()?;
        self.groups[k].classes.binary_search(&class).ok()?;
        Some((k % self.shards as usize) as u32)
    }

    /// The record on `line`, a line of shard `shard`'s records, if it can be
    /// believed (its boards best first).
    pub(crate) fn check(&mut self, shard: u32, line: &[u8]) -> Result<ClassRecord, BadRecord> {
        let line: Line = serde_json::from_slice(line).map_err(BadRecord::Json)?;
        if !(line.cpu.is_finite() && (0.0..=1e12).contains(&line.cpu)) {
            return Err(BadRecord::Cpu);
        }
        let class = line.class;
        match self.owner(class) {
            None => return Err(BadRecord::NotAClass { class }),
            Some(owner) if owner != shard => return Err(BadRecord::OtherShard { class, owner }),
            Some(_) => {}
        }
        let digits = self.classes.digits(class);
        let mut seen = HashSet::new();
        let mut boards = Vec::with_capacity(line.boards.len());
        for (i, board) in line.boards.into_iter().enumerate() {
            let found = self
                .check_board(&digits, line.bound, board, &mut seen)
                .map_err(|reason| BadRecord::Board {
                    index: i + 1,
                    reason,
                })?;
            boards.push(found);
        }
        boards.sort_unstable_by(|a, b| b.cmp(a));
        Ok(ClassRecord {
            class,
            bound: line.bound,
            boards,
            cpu: line.cpu,
        })
    }

    fn check_board(
        &mut self,
        digits: &[u8],
        bound: u32,
        board: Board,
        seen: &mut HashSet<Vec<u8>>,
    ) -> Result<FoundBoard, BadBoard> {
        let rules = &self.settings.rules;
        let cells = rules.cells();
        let letters =
            letters_of(&board.board, cells, rules.q).ok_or(BadBoard::Letters { cells })?;
        // The text is known to be letters of the board's size from here on: it may be shown.
        let text = board.board;
        if !self.classes.holds(&self.settings.buckets, digits, &letters) {
            return Err(BadBoard::NotInClass { board: text });
        }
        let canonical = self.classes.canonical_board(&letters);
        if canonical != letters {
            return Err(BadBoard::NotCanonical {
                board: text,
                canonical: self.settings.board_text(&canonical),
            });
        }
        let actual = self.score(&letters);
        if actual != board.score {
            return Err(BadBoard::Score {
                board: text,
                claimed: board.score,
                actual,
            });
        }
        if actual < self.settings.above {
            return Err(BadBoard::UnderTarget {
                board: text,
                score: actual,
                above: self.settings.above,
            });
        }
        if actual > bound {
            return Err(BadBoard::AboveBound {
                board: text,
                score: actual,
                bound,
            });
        }
        if !seen.insert(letters) {
            return Err(BadBoard::Twice { board: text });
        }
        Ok(FoundBoard {
            score: actual,
            board: text,
        })
    }

    /// The score of a board (letters 0 = A, row by row) with the word list.
    fn score(&mut self, letters: &[u8]) -> u32 {
        let rules = &self.settings.rules;
        for (face, &letter) in self.faces.iter_mut().zip(letters) {
            *face = if rules.q == QReads::Qu && letter == b'Q' - b'A' {
                Face::QU
            } else {
                Face::letter(b'A' + letter).unwrap_or(Face::BLANK)
            };
        }
        self.searcher
            .score_faces(rules.rows, rules.cols, &self.faces)
    }
}

/// A board's letters (0 = A), if `text` is exactly `cells` letters A to Z,
/// each `Q` written `QU` under [`QReads::Qu`].
fn letters_of(text: &str, cells: usize, q: QReads) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut letters = Vec::with_capacity(cells);
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if !byte.is_ascii_uppercase() || letters.len() == cells {
            return None;
        }
        letters.push(byte - b'A');
        i += 1;
        if q == QReads::Qu && byte == b'Q' {
            if bytes.get(i) != Some(&b'U') {
                return None;
            }
            i += 1;
        }
    }
    (letters.len() == cells).then_some(letters)
}

/// A shard's records as read and checked: each class once, with its line.
#[derive(Debug, Default)]
pub struct ShardRecords {
    /// Each class's record and the line it is first on.
    pub(crate) records: BTreeMap<u64, (ClassRecord, usize)>,
    /// Lines that repeat an earlier line's class, bound and boards (ignored).
    pub(crate) repeats: usize,
    /// How the file ended.
    pub(crate) tail: Option<Tail>,
}

impl ShardRecords {
    /// Reads and checks shard `shard`'s records from `reader` (named `path`
    /// in errors); a partial last line is left out and reported in the tail.
    pub fn read<R: BufRead>(
        reader: R,
        shard: u32,
        checker: &mut Checker<'_>,
        path: &Path,
    ) -> Result<ShardRecords, ProveError> {
        let mut read = ShardRecords::default();
        let error = |line, reason| ProveError::Record {
            path: path.to_path_buf(),
            line,
            reason,
        };
        let tail = for_each_line(
            reader,
            MAX_LINE_BYTES,
            |number, line| {
                if line.is_empty() {
                    return Ok(());
                }
                let record = checker.check(shard, line).map_err(|e| error(number, e))?;
                read.add(record, number).map_err(|e| error(number, e))
            },
            error,
            |source| ProveError::Io {
                path: path.to_path_buf(),
                source,
            },
        )?;
        read.tail = Some(tail);
        Ok(read)
    }

    /// Adds a checked record from line `number`: a repeat that agrees is
    /// counted and dropped, one that does not is an error.
    fn add(&mut self, record: ClassRecord, number: usize) -> Result<(), BadRecord> {
        match self.records.get(&record.class) {
            Some((first, line)) => {
                if first.bound == record.bound && first.boards == record.boards {
                    self.repeats += 1;
                    Ok(())
                } else {
                    Err(BadRecord::Conflict {
                        class: record.class,
                        first: *line,
                    })
                }
            }
            None => {
                self.records.insert(record.class, (record, number));
                Ok(())
            }
        }
    }

    /// The records, by class.
    pub fn records(&self) -> impl Iterator<Item = &ClassRecord> {
        self.records.values().map(|(record, _)| record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classes::Buckets;
    use boggle_engine::SearchRules;

    const WORDS: [&str; 6] = ["ate", "eat", "sea", "tea", "seat", "east"];

    struct Proof {
        trie: Trie,
        settings: Settings,
        classes: Classes,
        groups: Vec<Group>,
    }

    fn proof() -> Proof {
        let trie = Trie::from_words(WORDS);
        let rules = SearchRules::standard(2, 2);
        let buckets = Buckets::parse("a e st bcdfghijklmnopqruvwxyz").expect("valid");
        let settings = Settings::new(rules, buckets, 4).expect("2x2");
        let classes = settings.classes();
        let groups = classes.groups();
        Proof {
            trie,
            settings,
            classes,
            groups,
        }
    }

    fn check(line: &str) -> Result<ClassRecord, BadRecord> {
        let p = proof();
        let mut checker = Checker::new(&p.trie, &p.settings, &p.classes, &p.groups, 1);
        checker.check(0, line.as_bytes())
    }

    fn board_error(line: &str) -> BadBoard {
        match check(line) {
            Err(BadRecord::Board { reason, .. }) => reason,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn a_true_line_is_believed() {
        // Class 26: A, E, S or T, S or T. AEST scores 6 (SEAT, EAST, ATE,
        // EAT, TEA, SEA), and is the form of itself that sorts first.
        let record =
            check(r#"{"class":26,"bound":9,"boards":[{"board":"AEST","score":6}],"cpu":0.1}"#)
                .expect("a true line");
        assert_eq!(record.boards[0].board, "AEST");
    }

    #[test]
    fn forged_lines_are_named_for_what_is_wrong() {
        let line =
            |boards: &str| format!(r#"{{"class":26,"bound":9,"boards":[{boards}],"cpu":0}}"#);
        assert_eq!(
            board_error(&line(r#"{"board":"AEST","score":999}"#)),
            BadBoard::Score {
                board: "AEST".into(),
                claimed: 999,
                actual: 6
            }
        );
        assert!(matches!(
            board_error(&line(r#"{"board":"ZZZZZZZZZ","score":5000}"#)),
            BadBoard::Letters { cells: 4 }
        ));
        assert!(matches!(
            board_error(&line(r#"{"board":"QQ","score":1}"#)),
            BadBoard::Letters { .. }
        ));
        assert!(matches!(
            board_error(&line(r#"{"board":"A\u001b[2J","score":1}"#)),
            BadBoard::Letters { .. }
        ));
        assert!(matches!(
            board_error(&line(r#"{"board":"ZEST","score":1}"#)),
            BadBoard::NotInClass { .. }
        ));
        assert_eq!(
            board_error(&line(r#"{"board":"ASET","score":6}"#)),
            BadBoard::NotCanonical {
                board: "ASET".into(),
                canonical: "AEST".into()
            }
        );
        assert!(matches!(
            board_error(&line(r#"{"board":"AETT","score":3}"#)),
            BadBoard::UnderTarget { .. }
        ));
        assert!(matches!(
            board_error(&line(
                r#"{"board":"AEST","score":6},{"board":"AEST","score":6}"#
            )),
            BadBoard::Twice { .. }
        ));
        assert!(matches!(
            board_error(r#"{"class":26,"bound":5,"boards":[{"board":"AEST","score":6}],"cpu":0}"#),
            BadBoard::AboveBound {
                score: 6,
                bound: 5,
                ..
            }
        ));
        assert!(matches!(
            check(r#"{"class":256,"bound":1,"boards":[],"cpu":0}"#),
            Err(BadRecord::NotAClass { class: 256 })
        ));
        assert!(matches!(
            check(r#"{"class":26,"bound":1,"boards":[],"cpu":-1}"#),
            Err(BadRecord::Cpu)
        ));
        assert!(matches!(
            check(r#"{"class":26,"bound":1,"boards":[],"cpu":0,"x":1}"#),
            Err(BadRecord::Json(_))
        ));
    }

    #[test]
    fn repeats_that_agree_are_counted_and_others_refused() {
        let p = proof();
        let mut checker = Checker::new(&p.trie, &p.settings, &p.classes, &p.groups, 1);
        let a = r#"{"class":26,"bound":9,"boards":[{"board":"AEST","score":6}],"cpu":0.1}"#;
        let again = r#"{"class":26,"bound":9,"boards":[{"board":"AEST","score":6}],"cpu":0.3}"#;
        let text = format!("{a}\n{again}\n\n{a}\n{{\"class\":");
        let read = ShardRecords::read(text.as_bytes(), 0, &mut checker, Path::new("s"))
            .expect("repeats agree");
        assert_eq!((read.records.len(), read.repeats), (1, 2));
        assert!(read.tail.is_some_and(|t| t.partial));
        let other = r#"{"class":26,"bound":9,"boards":[],"cpu":0.1}"#;
        let text = format!("{a}\n{other}\n");
        let e = ShardRecords::read(text.as_bytes(), 0, &mut checker, Path::new("s"))
            .expect_err("a conflict");
        assert_eq!(
            e.to_string(),
            "s:2: class 26 is on line 1 too, with another bound or other boards"
        );
    }

    #[test]
    fn the_digest_ignores_cpu_and_sees_bounds() {
        let record = |bound, cpu| ClassRecord {
            class: 1,
            bound,
            boards: Vec::new(),
            cpu,
        };
        assert_eq!(digest([&record(5, 0.1)]), digest([&record(5, 0.2)]));
        assert_ne!(digest([&record(5, 0.1)]), digest([&record(4, 0.1)]));
    }
}
