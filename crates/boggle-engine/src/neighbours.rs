//! Which cells a path may step to from each cell, for one board shape and move
//! rule, computed once and shared by every search and path check.

use crate::rules::MoveRule;

/// A flat neighbour table: the cells reachable from `cell` are
/// `cells[offsets[cell]..offsets[cell + 1]]`, in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbours {
    rows: usize,
    cols: usize,
    moves: MoveRule,
    offsets: Vec<u32>,
    cells: Vec<u16>,
}

impl Neighbours {
    /// The table for a rows x cols board (at most 65,536 cells) under `moves`.
    pub fn new(rows: usize, cols: usize, moves: MoveRule) -> Neighbours {
        let mut offsets = Vec::with_capacity(rows * cols + 1);
        let mut cells = Vec::with_capacity(rows * cols * 8);
        offsets.push(0);
        for row in 0..rows {
            for col in 0..cols {
                for (dr, dc) in steps(moves) {
                    let (r, c) = (row as isize + dr, col as isize + dc);
                    // No wrap-around: a step off any edge is simply not a neighbour.
                    if r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols {
                        cells.push((r as usize * cols + c as usize) as u16);
                    }
                }
                offsets.push(cells.len() as u32);
            }
        }
        Neighbours {
            rows,
            cols,
            moves,
            offsets,
            cells,
        }
    }

    /// Whether this table is for the given shape and rule.
    pub(crate) fn is_for(&self, rows: usize, cols: usize, moves: MoveRule) -> bool {
        self.rows == rows && self.cols == cols && self.moves == moves
    }

    /// The cells a path may step to from `cell`.
    #[inline]
    pub fn of(&self, cell: usize) -> &[u16] {
        let (start, end) = (self.offsets[cell], self.offsets[cell + 1]);
        &self.cells[start as usize..end as usize]
    }
}

/// Row and column steps a path may take, in row-major order of the target cell.
fn steps(moves: MoveRule) -> &'static [(isize, isize)] {
    match moves {
        MoveRule::EightNeighbours => &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ],
        // Spec 004: the next letter's row is never above the current one.
        MoveRule::NoUp => &[(0, -1), (0, 1), (1, -1), (1, 0), (1, 1)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_edge_and_middle() {
        let n = Neighbours::new(4, 4, MoveRule::EightNeighbours);
        assert_eq!(n.of(0), [1, 4, 5]);
        assert_eq!(n.of(5), [0, 1, 2, 4, 6, 8, 9, 10]);
        assert_eq!(n.of(7), [2, 3, 6, 10, 11]);
        assert_eq!(n.of(15), [10, 11, 14]);
    }

    #[test]
    fn no_up_never_goes_to_an_earlier_row() {
        let n = Neighbours::new(4, 4, MoveRule::NoUp);
        assert_eq!(n.of(5), [4, 6, 8, 9, 10]);
        assert_eq!(n.of(15), [14]);
        assert_eq!(n.of(3), [2, 6, 7]);
    }

    #[test]
    fn single_cell_and_single_row() {
        assert!(
            Neighbours::new(1, 1, MoveRule::EightNeighbours)
                .of(0)
                .is_empty()
        );
        let row = Neighbours::new(1, 3, MoveRule::NoUp);
        assert_eq!(row.of(1), [0, 2]);
    }
}
