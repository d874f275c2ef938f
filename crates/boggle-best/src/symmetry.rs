//! Boards that are rotations or reflections of each other hold the same
//! words (under the no-up rule only the left-right mirror does), so the
//! search keeps one canonical form of each: the smallest image in row-major
//! face order.

use boggle_game::face::Face;
use boggle_game::game_board::GameBoard;
use boggle_game::rules::MoveRule;

/// The rotations and reflections of a board shape that keep every word in place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Symmetries {
    /// For each symmetry, the source cell of each target cell.
    maps: Vec<Vec<usize>>,
}

impl Symmetries {
    /// The symmetries of a rows x cols board under `moves`: all 8 on a square
    /// board with 8-neighbour moves, 4 on a rectangle (no quarter turns), and
    /// only the left-right mirror under the no-up rule, which tells up from down.
    pub(crate) fn new(rows: usize, cols: usize, moves: MoveRule) -> Symmetries {
        let (r, c) = (rows.saturating_sub(1), cols.saturating_sub(1));
        type Map = fn(usize, usize, usize, usize) -> (usize, usize);
        let mirror: Map = |row, col, _, c| (row, c - col);
        let mut kinds: Vec<Map> = vec![|row, col, _, _| (row, col), mirror];
        if moves == MoveRule::EightNeighbours {
            kinds.push(|row, col, r, _| (r - row, col));
            kinds.push(|row, col, r, c| (r - row, c - col));
            if rows == cols {
                kinds.push(|row, col, _, _| (col, row));
                kinds.push(|row, col, r, c| (r - col, c - row));
                kinds.push(|row, col, r, _| (r - col, row));
                kinds.push(|row, col, _, c| (col, c - row));
            }
        }
        let maps = kinds
            .into_iter()
            .map(|source| {
                (0..rows * cols)
                    .map(|cell| {
                        let (row, col) = source(cell / cols, cell % cols, r, c);
                        row * cols + col
                    })
                    .collect()
            })
            .collect();
        Symmetries { maps }
    }

    /// How many symmetries there are (the identity included).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.maps.len()
    }

    /// Every image of `faces` (row-major) under the symmetries, the identity first.
    pub(crate) fn images(&self, faces: &[Face]) -> Vec<Vec<Face>> {
        self.maps
            .iter()
            .map(|map| map.iter().map(|&cell| faces[cell]).collect())
            .collect()
    }

    /// The canonical form of `faces`: the smallest image, so equal boards share it.
    pub(crate) fn canonical(&self, faces: &[Face]) -> Vec<Face> {
        self.images(faces)
            .into_iter()
            .min()
            .unwrap_or_else(|| faces.to_vec())
    }
}

/// The canonical form of `board` under `moves`: the smallest of its
/// rotations and reflections that keep every word in place.
pub fn canonical(board: &GameBoard, moves: MoveRule) -> GameBoard {
    let symmetries = Symmetries::new(board.rows(), board.cols(), moves);
    rebuild(
        board.rows(),
        board.cols(),
        symmetries.canonical(board.faces()),
    )
}

/// A board from faces whose count matches the shape (the space was built for it).
pub(super) fn rebuild(rows: usize, cols: usize, faces: Vec<Face>) -> GameBoard {
    GameBoard::from_rolled(rows, cols, faces)
}
