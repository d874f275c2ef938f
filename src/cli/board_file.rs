//! Boards written down: spec 002's board files (`ROWS COLS` then the cells,
//! separated by white space, `Qu` or `Q` for the Qu face) and the one-line
//! form of board lists (row-major letters, one character per cell, `q` = Qu).

use std::fmt;

use crate::face::Face;
use crate::game_board::GameBoard;

/// What is wrong with a board file, and on which line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardFileError {
    /// One-based line number.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for BoardFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BoardFileError {}

/// Parses a spec 002 board file. With `qu`, a lone `Q` cell is the Qu face.
pub fn parse_board_file(text: &str, qu: bool) -> Result<GameBoard, BoardFileError> {
    let mut tokens = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t)));
    let last_line = text.lines().count().max(1);
    let mut dimension = |what: &str| -> Result<usize, BoardFileError> {
        let (line, token) = tokens.next().ok_or_else(|| BoardFileError {
            line: last_line,
            message: format!("missing the number of {what}"),
        })?;
        token
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| BoardFileError {
                line,
                message: format!(
                    "the number of {what} must be a positive whole number, not {token:?}"
                ),
            })
    };
    let rows = dimension("rows")?;
    let cols = dimension("columns")?;
    let cells = rows.saturating_mul(cols);
    if cells > crate::game_board::MAX_CELLS {
        return Err(BoardFileError {
            line: 1,
            message: format!("a {rows}x{cols} board is too large"),
        });
    }
    let mut faces = Vec::with_capacity(cells);
    let mut last = 1;
    for (line, token) in tokens {
        last = line;
        if faces.len() == cells {
            return Err(BoardFileError {
                line,
                message: format!("more than the {cells} cells of a {rows}x{cols} board"),
            });
        }
        let face = Face::parse(token).ok_or_else(|| BoardFileError {
            line,
            message: format!("{token:?} is not a board cell (a letter, or Qu)"),
        })?;
        faces.push(if qu && face.as_str() == "Q" {
            Face::QU
        } else {
            face
        });
    }
    if faces.len() < cells {
        return Err(BoardFileError {
            line: last,
            message: format!(
                "only {} of the {cells} cells of a {rows}x{cols} board",
                faces.len()
            ),
        });
    }
    GameBoard::from_faces(rows, cols, faces).map_err(|e| BoardFileError {
        line: 1,
        message: e.to_string(),
    })
}

/// Parses one row-major line of a board list: one letter per cell, any case;
/// with `qu`, `q` is the Qu face (a following `u` is the next cell).
pub fn parse_board_line(
    line: &str,
    rows: usize,
    cols: usize,
    qu: bool,
) -> Result<GameBoard, crate::BoardError> {
    let faces = line
        .trim()
        .chars()
        .enumerate()
        .map(|(index, c)| {
            let face = u8::try_from(c).ok().and_then(Face::letter).ok_or_else(|| {
                crate::BoardError::NotALetter {
                    index,
                    found: c.to_string(),
                }
            })?;
            Ok(if qu && face.as_str() == "Q" {
                Face::QU
            } else {
                face
            })
        })
        .collect::<Result<Vec<Face>, crate::BoardError>>()?;
    GameBoard::from_faces(rows, cols, faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_spec_002_files() {
        let board =
            parse_board_file("4 4\nS N R T\nO I E L\nE Qu T T\nR S A T\n", true).expect("valid");
        assert_eq!(
            board.show_board(),
            "S  N  R  T\nO  I  E  L\nE  Qu T  T\nR  S  A  T\n"
        );
        let q = parse_board_file("4 4\nS N R T\nO I E L\nE Q T T\nR S A T", true).expect("valid");
        assert_eq!(q, board);
        let wide = parse_board_file("2 3 a b c\nd e f", true).expect("valid");
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
            let err = parse_board_file(text, true).expect_err(text);
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.message.contains(message), "{text:?}: {err}");
        }
    }

    #[test]
    fn board_lines_read_q_as_qu() {
        let board = parse_board_line("quitxxxxxxxxaqua", 4, 4, true).expect("16 cells");
        assert_eq!(
            board.show_board(),
            "Qu U  I  T\nX  X  X  X\nX  X  X  X\nA  Qu U  A\n"
        );
        assert!(parse_board_line("abc", 4, 4, true).is_err());
        assert!(parse_board_line("abcdefghijklmno!", 4, 4, true).is_err());
    }
}
