//! Boards written down: spec 002's board files (`ROWS COLS` then the cells,
//! separated by white space, `Qu` or `Q` for the Qu face) and the one-line
//! form of board lists (row-major letters, one character per cell, `q` = Qu),
//! and reading both from files or standard input with a bound on memory.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use boggle_game::face::{Face, QReads};
use boggle_game::game_board::{BoardError, GameBoard, MAX_CELLS};

/// Largest board file read: the largest board ([`MAX_CELLS`] cells written
/// as `Qu` and a space) is 12 KiB, so this only stops endless input such as
/// `/dev/zero` from taking all memory.
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 20;
/// Longest line of a board list: the largest board is [`MAX_CELLS`] letters.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;
/// Largest board list read: about 4 million 4x4 boards, held in memory at
/// about 100 bytes each (400 MB); a 256 MiB list peaked at 1.6 GB.
pub(crate) const MAX_LIST_BYTES: u64 = 64 << 20;

/// Why a board file or board list could not be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BoardFileError {
    /// The file could not be opened (missing, no permission, ...).
    #[error("cannot open {}", shown(path))]
    Open {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The file was opened but reading it failed (a directory, a device error, ...).
    #[error("cannot read {}", shown(path))]
    Read {
        /// The file (`-`: standard input).
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The input is longer than the cap for its kind.
    #[error(
        "{} is larger than {} MiB, the most boggle reads as boards",
        shown(path),
        limit >> 20
    )]
    TooLarge {
        /// The file (`-`: standard input).
        path: PathBuf,
        /// The cap in bytes.
        limit: u64,
    },
    /// A line of a board list is longer than `MAX_LINE_BYTES`.
    #[error(
        "{}:{line}: a line longer than {} KiB (the largest board has {MAX_CELLS} cells)",
        shown(path),
        MAX_LINE_BYTES >> 10
    )]
    LineTooLong {
        /// The file (`-`: standard input).
        path: PathBuf,
        /// One-based line number.
        line: usize,
    },
    /// A line is not UTF-8 text.
    #[error("{}:{line}: not UTF-8 text", shown(path))]
    NotText {
        /// The file (`-`: standard input).
        path: PathBuf,
        /// One-based line number.
        line: usize,
    },
    /// The text does not describe a board.
    #[error("{}:{line}", shown(path))]
    Malformed {
        /// The file (`-`: standard input).
        path: PathBuf,
        /// One-based line number.
        line: usize,
        /// What is wrong there.
        #[source]
        problem: BoardProblem,
    },
}

/// How a path is named in messages: `-` is standard input.
fn shown(path: &Path) -> Cow<'_, str> {
    if path == Path::new("-") {
        Cow::Borrowed("standard input")
    } else {
        path.to_string_lossy()
    }
}

/// Which dimension a board file's header gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dimension {
    /// The first number.
    Rows,
    /// The second number.
    Columns,
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dimension::Rows => "rows",
            Dimension::Columns => "columns",
        })
    }
}

/// What is wrong with the text of a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BoardProblem {
    /// The header stops before this number.
    #[error("missing the number of {0}")]
    MissingDimension(Dimension),
    /// A header number that is not a positive whole number.
    #[error("the number of {dimension} must be a positive whole number, not {found:?}")]
    BadDimension {
        /// Which number.
        dimension: Dimension,
        /// The text found instead.
        found: String,
    },
    /// More cells than any board may have.
    #[error("a {rows}x{cols} board is too large (at most {MAX_CELLS} cells)")]
    TooLarge {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// Cells beyond the last one the header allows.
    #[error("more than the {} cells of a {rows}x{cols} board", rows * cols)]
    TooManyCells {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// The text ends before the last cell.
    #[error("only {found} of the {} cells of a {rows}x{cols} board", rows * cols)]
    TooFewCells {
        /// Cells found.
        found: usize,
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// A cell that is not a face.
    #[error("{found:?} is not a board cell (a letter, or Qu)")]
    NotACell {
        /// The text found.
        found: String,
    },
    /// The cells do not make a board (a board list's line).
    #[error(transparent)]
    Board(BoardError),
}

/// What is wrong with a board file's text, and on which line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}")]
pub(crate) struct BoardSyntaxError {
    /// One-based line number.
    pub(crate) line: usize,
    /// What is wrong there.
    #[source]
    pub(crate) problem: BoardProblem,
}

/// Parses a spec 002 board file. Under [`QReads::Qu`], a lone `Q` cell is the Qu face.
/// A leading UTF-8 byte-order mark is skipped, as word lists' are.
pub(crate) fn parse_board_file(text: &str, q: QReads) -> Result<GameBoard, BoardSyntaxError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let at = |line: usize, problem: BoardProblem| BoardSyntaxError { line, problem };
    let mut tokens = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t)));
    let last_line = text.lines().count().max(1);
    let mut dimension = |dimension: Dimension| -> Result<usize, BoardSyntaxError> {
        let (line, token) = tokens
            .next()
            .ok_or_else(|| at(last_line, BoardProblem::MissingDimension(dimension)))?;
        token
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                let found = token.to_string();
                at(line, BoardProblem::BadDimension { dimension, found })
            })
    };
    let rows = dimension(Dimension::Rows)?;
    let cols = dimension(Dimension::Columns)?;
    let cells = rows.saturating_mul(cols);
    if cells > MAX_CELLS {
        return Err(at(1, BoardProblem::TooLarge { rows, cols }));
    }
    let mut faces = Vec::with_capacity(cells);
    let mut last = 1;
    for (line, token) in tokens {
        last = line;
        if faces.len() == cells {
            return Err(at(line, BoardProblem::TooManyCells { rows, cols }));
        }
        let face = Face::parse(token).ok_or_else(|| {
            let found = token.to_string();
            at(line, BoardProblem::NotACell { found })
        })?;
        faces.push(face.with_q(q));
    }
    if faces.len() < cells {
        let found = faces.len();
        return Err(at(last, BoardProblem::TooFewCells { found, rows, cols }));
    }
    GameBoard::from_faces(rows, cols, faces).map_err(|e| at(1, BoardProblem::Board(e)))
}

/// Opens `path` for reading boards; `-` is standard input.
fn open(path: &Path) -> Result<Box<dyn Read>, BoardFileError> {
    if path == Path::new("-") {
        return Ok(Box::new(io::stdin()));
    }
    match std::fs::File::open(path) {
        Ok(file) => Ok(Box::new(file)),
        Err(source) => Err(BoardFileError::Open {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The one-based line of byte `offset` in `bytes`.
fn line_at(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Reads and parses one spec 002 board file (`-`: standard input), at most
/// `MAX_FILE_BYTES` of it.
pub(crate) fn read_board_file(path: &Path, q: QReads) -> Result<GameBoard, BoardFileError> {
    let mut bytes = Vec::new();
    open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| BoardFileError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(BoardFileError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE_BYTES,
        });
    }
    let text = std::str::from_utf8(&bytes).map_err(|e| BoardFileError::NotText {
        path: path.to_path_buf(),
        line: line_at(&bytes, e.valid_up_to()),
    })?;
    parse_board_file(text, q).map_err(|e| BoardFileError::Malformed {
        path: path.to_path_buf(),
        line: e.line,
        problem: e.problem,
    })
}

/// Reads a board list (`-`: standard input): one board per line as
/// [`parse_board_line`] reads it, blank lines skipped. Read line by line, each
/// at most `MAX_LINE_BYTES` and all at most `MAX_LIST_BYTES`.
pub(crate) fn read_board_list(
    path: &Path,
    rows: usize,
    cols: usize,
    q: QReads,
) -> Result<Vec<GameBoard>, BoardFileError> {
    let file = || path.to_path_buf();
    let mut reader = BufReader::new(open(path)?);
    let mut boards = Vec::new();
    let mut bytes = Vec::new();
    let mut total: u64 = 0;
    let mut line = 0;
    loop {
        line += 1;
        bytes.clear();
        // One byte past the cap tells a line that is too long from one that just fits.
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|source| BoardFileError::Read {
                path: file(),
                source,
            })?;
        if read == 0 {
            return Ok(boards);
        }
        total += read as u64;
        if total > MAX_LIST_BYTES {
            return Err(BoardFileError::TooLarge {
                path: file(),
                limit: MAX_LIST_BYTES,
            });
        }
        let content = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        if content.len() > MAX_LINE_BYTES {
            return Err(BoardFileError::LineTooLong { path: file(), line });
        }
        let text = std::str::from_utf8(content)
            .map_err(|_| BoardFileError::NotText { path: file(), line })?;
        let text = if line == 1 {
            text.strip_prefix('\u{feff}').unwrap_or(text)
        } else {
            text
        };
        if text.trim().is_empty() {
            continue;
        }
        let board =
            parse_board_line(text, rows, cols, q).map_err(|e| BoardFileError::Malformed {
                path: file(),
                line,
                problem: BoardProblem::Board(e),
            })?;
        boards.push(board);
    }
}

/// Parses one row-major line of a board list: one letter per cell, any case;
/// under [`QReads::Qu`], `q` is the Qu face (a following `u` is the next cell).
pub(crate) fn parse_board_line(
    line: &str,
    rows: usize,
    cols: usize,
    q: QReads,
) -> Result<GameBoard, BoardError> {
    // Each character is one cell, so the design's parser of cells reads it,
    // each cell a slice of the line: a `String` per cell was 17 allocations
    // a board, 6% of `bench`'s time on a list of 200,000 boards.
    let line = line.trim();
    let cells = line
        .char_indices()
        .map(|(at, c)| &line[at..at + c.len_utf8()]);
    GameBoard::from_cells(cells, rows, cols, q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_spec_002_files() {
        let board = parse_board_file("4 4\nS N R T\nO I E L\nE Qu T T\nR S A T\n", QReads::Qu)
            .expect("valid");
        assert_eq!(
            board.show_board(),
            "S  N  R  T\nO  I  E  L\nE  Qu T  T\nR  S  A  T\n"
        );
        let q =
            parse_board_file("4 4\nS N R T\nO I E L\nE Q T T\nR S A T", QReads::Qu).expect("valid");
        assert_eq!(q, board);
        let wide = parse_board_file("2 3 a b c\nd e f", QReads::Qu).expect("valid");
        assert_eq!((wide.rows(), wide.cols()), (2, 3));
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("", 1, "missing the number of rows"),
            ("4", 1, "missing the number of columns"),
            ("4 x\n", 1, "columns must be a positive"),
            ("2 2\nA B\nC", 3, "only 3 of the 4 cells"),
            ("2 2\nA B\nC D\nE", 4, "more than the 4 cells"),
            ("2 2\nA B\nC 7", 3, "\"7\" is not a board cell"),
            ("0 4", 1, "rows must be a positive"),
            ("99999 99999", 1, "too large"),
        ];
        for (text, line, message) in cases {
            let err = parse_board_file(text, QReads::Qu).expect_err(text);
            let problem = err.problem.to_string();
            assert_eq!(err.line, line, "{text:?}: {problem}");
            assert!(problem.contains(message), "{text:?}: {problem}");
        }
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let plain = parse_board_file("2 2\nA B\nC D\n", QReads::Qu).expect("valid");
        let marked = parse_board_file("\u{feff}2 2\nA B\nC D\n", QReads::Qu).expect("valid");
        assert_eq!(marked, plain);
    }

    #[test]
    fn bad_bytes_are_placed_on_their_line() {
        assert_eq!(line_at(b"a\nb\nc", 0), 1);
        assert_eq!(line_at(b"a\nb\nc", 4), 3);
        assert_eq!(line_at(b"a\n", 99), 2);
    }

    #[test]
    fn board_lines_read_q_as_qu() {
        let board = parse_board_line("quitxxxxxxxxaqua", 4, 4, QReads::Qu).expect("16 cells");
        assert_eq!(
            board.show_board(),
            "Qu U  I  T\nX  X  X  X\nX  X  X  X\nA  Qu U  A\n"
        );
        assert!(parse_board_line("abc", 4, 4, QReads::Qu).is_err());
        assert!(parse_board_line("abcdefghijklmno!", 4, 4, QReads::Qu).is_err());
    }
}
