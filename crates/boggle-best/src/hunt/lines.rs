//! A hunt's results lines, believed only once checked: each `SCORE BOARD`
//! line is parsed, its board must be of the hunt's size and in the
//! canonical form the hunt writes, and it is scored again under the hunt's
//! rules and word list; a line that does not check out is dropped and
//! counted ([`Dropped`]), never ranked.
//!
//! A board is written as letters (`QU` for the Qu face), as `boggle`
//! reads a board back; a board with a face that letters alone cannot
//! write (a blank, `Th`, `He` and the other two-letter dice faces) is
//! written as on the dice (`Th`, `-`), so every line reads back as one
//! board only.
//!
//! Limits: a board of real dice is scored again but not checked to be one
//! the dice can show; a line longer than 4096 bytes ends the
//! reading of its file (no hunt writes one: the file is refused).

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use ahash::AHashSet;

use boggle_engine::search::Searcher;
use boggle_engine::trie::Trie;
use boggle_files::{self as files, FileError, Line};
use boggle_game::face::{Face, QReads};
use boggle_game::game_board::GameBoard;
use boggle_game::rules::Rules;

use super::HuntError;
use crate::Objective;
use crate::symmetry::Symmetries;

/// The digits of the largest score (`u32::MAX`).
const SCORE_DIGITS: usize = 10;

/// The longest line read from a results file, past which the file is not
/// one a hunt wrote: longer lines that are not boards are dropped, but a
/// file of one endless line is refused before much of it is read.
pub(crate) const MAX_ANY_LINE: usize = 4096;

/// Why a results line does not check out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadLine {
    /// Not `SCORE BOARD`: no space, or a score that is not a number as a hunt writes it.
    Form,
    /// Longer than a results line of the hunt's size can be.
    TooLong,
    /// The board is not one of the hunt's size and faces.
    Board(String),
    /// The board is not written in its canonical form (the hunt writes no other).
    NotCanonical,
    /// The board does not score what the line says.
    Score {
        /// What the line says.
        written: u32,
        /// What the board scores.
        scored: u32,
    },
    /// The board takes longer to score than the search allows (the search never keeps one).
    TooCostly,
    /// The board is on an earlier line of the file.
    Repeat,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadLine::Form => f.write_str("not 'SCORE BOARD'"),
            BadLine::TooLong => f.write_str("longer than a results line of this size"),
            BadLine::Board(why) => write!(f, "not a board of this hunt ({why})"),
            BadLine::NotCanonical => f.write_str("a board not in the canonical form"),
            BadLine::Score { written, scored } => {
                write!(f, "says {written}, the board scores {scored}")
            }
            BadLine::TooCostly => f.write_str("a board too costly to score"),
            BadLine::Repeat => f.write_str("a board already on an earlier line"),
        }
    }
}

/// The lines of one file that did not check out: how many, and the first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Lines dropped.
    pub count: usize,
    /// The first one: its line number and why.
    pub(crate) first: Option<(usize, BadLine)>,
}

impl Dropped {
    /// Counts line `number`, dropped for `why`.
    fn add(&mut self, number: usize, why: BadLine) {
        self.count += 1;
        self.first.get_or_insert((number, why));
    }
}

impl fmt::Display for Dropped {
    /// `dropped 3 lines that do not check out (the first, line 7: ...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = boggle_game::text::plural(self.count, "line", "lines");
        write!(f, "dropped {} {lines} that do not check out", self.count)?;
        if let Some((number, why)) = &self.first {
            write!(f, " (the first, line {number}: {why})")?;
        }
        Ok(())
    }
}

/// Checks results lines against the rules and word list a hunt scores by.
pub struct Checker<'t> {
    searcher: Searcher<'t>,
    rows: usize,
    cols: usize,
    q: QReads,
    symmetries: Symmetries,
}

impl<'t> Checker<'t> {
    /// A checker of the boards of a hunt under `rules`, scored by `objective` with `trie`'s words.
    pub fn new(trie: &'t Trie, rules: &Rules, objective: Objective) -> Checker<'t> {
        Checker {
            searcher: Searcher::new(trie, objective.search_rules(rules)),
            rows: rules.rows,
            cols: rules.cols,
            q: rules.q,
            symmetries: Symmetries::new(rules.rows, rules.cols, rules.moves),
        }
    }

    /// How the hunt's rules read a `Q` face (how its boards are written).
    pub(crate) fn q(&self) -> QReads {
        self.q
    }

    /// The longest a results line of this size can be (without its newline).
    pub(crate) fn max_line(&self) -> usize {
        SCORE_DIGITS + 1 + 2 * self.rows * self.cols
    }

    /// The score and board of `line` if it checks out.
    pub(crate) fn check(&mut self, line: &[u8]) -> Result<(u32, String), BadLine> {
        if line.len() > self.max_line() {
            return Err(BadLine::TooLong);
        }
        let text = std::str::from_utf8(line).map_err(|_| BadLine::Form)?;
        let (score, board) = text.split_once(' ').ok_or(BadLine::Form)?;
        let written: u32 = score.parse().map_err(|_| BadLine::Form)?;
        if written.to_string() != score {
            return Err(BadLine::Form);
        }
        let faces = GameBoard::from_typed(board, self.rows, self.cols, self.q)
            .map_err(|e| BadLine::Board(e.to_string()))?
            .faces()
            .to_vec();
        if board_text(&faces, self.q) != board {
            return Err(BadLine::Board("not written as a hunt writes it".into()));
        }
        if self.symmetries.canonical(&faces) != faces {
            return Err(BadLine::NotCanonical);
        }
        let scored = self.searcher.score_faces(self.rows, self.cols, &faces);
        if self.searcher.exhausted() {
            return Err(BadLine::TooCostly);
        }
        if scored != written {
            return Err(BadLine::Score { written, scored });
        }
        Ok((written, board.to_string()))
    }
}

/// `faces` as a results line writes them: letters (`QU` for the Qu face)
/// when letters alone read back as these faces, else as on the dice
/// (`Th`, `Qu`, `-` for a blank).
pub fn board_text(faces: &[Face], q: QReads) -> String {
    let plain = faces
        .iter()
        .all(|face| face.len() == 1 || (*face == Face::QU && q == QReads::Qu));
    if plain {
        faces.iter().map(Face::as_str).collect()
    } else {
        faces.iter().map(ToString::to_string).collect()
    }
}

/// What reading a results file found.
#[derive(Debug, Default)]
pub struct Read {
    /// The lines that checked out, in order.
    pub lines: Vec<(u32, String)>,
    /// Bytes of the file's whole lines.
    pub whole: u64,
    /// Whether bytes follow the last whole line (a line cut off as it was written).
    pub(crate) torn: bool,
    /// The lines that did not check out.
    pub dropped: Dropped,
}

/// Reads and checks every whole line of the results in `reader` (read from
/// `path`), a line at a time; a board already in `seen` is a repeat, and
/// each board that checks out is added to it.
pub fn read_results<R: BufRead>(
    mut reader: R,
    path: &Path,
    checker: &mut Checker,
    seen: &mut AHashSet<String>,
) -> Result<Read, HuntError> {
    let mut read = Read::default();
    let mut line = Vec::new();
    for number in 1.. {
        match files::next_line(&mut reader, MAX_ANY_LINE, &mut line).map_err(FileError::io(path))? {
            Line::End => break,
            Line::Torn(_) => {
                read.torn = true;
                break;
            }
            Line::TooLong => {
                return Err(HuntError::Corrupt {
                    path: path.to_path_buf(),
                    reason: format!(
                        "line {number} is longer than {MAX_ANY_LINE} bytes: not a hunt's results"
                    ),
                });
            }
            Line::Whole(bytes) => {
                read.whole += bytes as u64;
                match checker.check(&line) {
                    Ok((_, board)) if seen.contains(&board) => {
                        read.dropped.add(number, BadLine::Repeat);
                    }
                    Ok((score, board)) => {
                        seen.insert(board.clone());
                        read.lines.push((score, board));
                    }
                    Err(why) => read.dropped.add(number, why),
                }
            }
        }
    }
    Ok(read)
}

#[cfg(test)]
#[expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]
mod tests {
    use super::*;
    use boggle_game::dictionary::Dictionary;
    use boggle_game::rules::Preset;

    #[test]
    fn a_line_checks_out_only_as_the_hunt_wrote_it() {
        let dictionary = Dictionary::parse(b"eat\ntea\nate\neta\nseat\neats\n");
        let rules = Rules::sized(Preset::Classic, 2, 2);
        let mut checker = Checker::new(dictionary.trie(), &rules, Objective::Points);
        // EA/ST holds EAT, ATE, TEA, ETA, SEAT, EATS, SATE... as the list allows.
        let faces = GameBoard::from_letters("AEST", 2, 2, rules.q)
            .expect("a board")
            .faces()
            .to_vec();
        let canonical = Symmetries::new(2, 2, rules.moves).canonical(&faces);
        let text = board_text(&canonical, rules.q);
        let score = Searcher::new(dictionary.trie(), &rules).score_faces(2, 2, &canonical);
        assert!(score > 0);
        let line = format!("{score} {text}");
        assert_eq!(checker.check(line.as_bytes()), Ok((score, text.clone())));
        let mut bad = |line: &str| checker_result(&mut checker, line);
        assert_eq!(
            bad(&format!("{} {text}", score + 1)),
            Some(BadLine::Score {
                written: score + 1,
                scored: score
            })
        );
        assert_eq!(bad(&format!("0{score} {text}")), Some(BadLine::Form));
        assert_eq!(bad(&format!("+{score} {text}")), Some(BadLine::Form));
        assert!(matches!(
            bad(&format!("{score}  {text}")),
            Some(BadLine::Board(_))
        ));
        assert!(matches!(bad("5000 AB"), Some(BadLine::Board(_))));
        assert!(matches!(
            bad(&format!("1 {}", "A".repeat(57))),
            Some(BadLine::TooLong)
        ));
        assert_eq!(bad("99999"), Some(BadLine::Form));
        assert!(matches!(
            bad(&format!("{score} {}", text.to_lowercase())),
            Some(BadLine::Board(_))
        ));
        let mirrored: String = [&text[1..2], &text[0..1], &text[3..4], &text[2..3]].concat();
        if mirrored != text {
            assert_eq!(
                bad(&format!("{score} {mirrored}")),
                Some(BadLine::NotCanonical)
            );
        }
    }

    fn checker_result(checker: &mut Checker, line: &str) -> Option<BadLine> {
        checker.check(line.as_bytes()).err()
    }

    #[test]
    fn faces_letters_cannot_write_are_written_as_on_the_dice() {
        let faces = [
            Face::parse("Th"),
            Face::parse("E"),
            Face::parse("-"),
            Face::parse("Qu"),
        ]
        .map(|face| face.expect("a face"));
        let text = board_text(&faces, QReads::Qu);
        assert_eq!(text, "ThE-Qu");
        let back = GameBoard::from_typed(&text, 2, 2, QReads::Qu).expect("reads back");
        assert_eq!(back.faces(), faces);
        let plain = [Face::QU, Face::parse("U").expect("U")];
        assert_eq!(board_text(&plain, QReads::Qu), "QUU");
        let back = GameBoard::from_typed("QUU", 1, 2, QReads::Qu).expect("reads back");
        assert_eq!(back.faces(), plain);
    }
}
