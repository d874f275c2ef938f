//! The order cells are forced in, and the letters each position may hold.
//!
//! A [`Layout`] numbers a board's cells by *position*: the order the prover
//! forces them in, and the order of the fields of an entry's key (so of the
//! levels of the orderly tree). Cells with the most neighbours come first
//! (the centre, the edges, then the corners, nearer the centre first): a
//! cell with many neighbours is in many word paths, and forcing it early
//! prunes the most. Within those blocks, [`Layout::arrange`] puts the cells
//! with the fewest letters first for each group. [`Cells`] is the class
//! being proved in that order: each position's letters, and each letter's
//! cells as bits, which is what collecting word paths asks.
//!
//! Limits: at most 32 cells (a cell set is a `u32`; the prover itself
//! stops at 16).

use boggle_engine::SearchRules;
use boggle_engine::neighbours::Neighbours;

/// The cell order for a board shape (set for each group by
/// `Layout::arrange`) and the neighbours of each cell.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    rows: usize,
    cols: usize,
    /// `order[position]`: the cell forced at that depth.
    order: Vec<usize>,
    /// The order a fresh layout forces cells in, which classes are read in
    /// ([`Layout::arrange`] changes `order` only within its blocks).
    reading: Vec<usize>,
    /// `position[cell]`: where that cell is in `order`.
    position: Vec<usize>,
    /// `neighbours[cell]`: the cells a path may step to, as bits.
    neighbours: Vec<u32>,
}

impl Layout {
    /// The layout for `rules`' board (at most 32 cells): cells with the most
    /// neighbours first (centre, then edges, then corners), nearer the centre first.
    pub(crate) fn new(rules: &SearchRules) -> Layout {
        let (rows, cols) = (rules.rows, rules.cols);
        let table = Neighbours::new(rows, cols, rules.moves);
        let neighbours: Vec<u32> = (0..rows * cols)
            .map(|cell| table.of(cell).iter().fold(0u32, |m, &n| m | 1 << n))
            .collect();
        let mut order: Vec<usize> = (0..rows * cols).collect();
        // Twice the distance to the centre, squared, keeps everything in integers.
        let distance = |cell: usize| {
            let dr = (2 * (cell / cols)) as i64 - (rows as i64 - 1);
            let dc = (2 * (cell % cols)) as i64 - (cols as i64 - 1);
            dr * dr + dc * dc
        };
        order.sort_by_key(|&cell| {
            (
                std::cmp::Reverse(neighbours[cell].count_ones()),
                distance(cell),
                cell,
            )
        });
        let mut layout = Layout {
            rows,
            cols,
            reading: order.clone(),
            order,
            position: vec![0; rows * cols],
            neighbours,
        };
        layout.place();
        layout
    }

    /// Sets each cell's position from `order`.
    fn place(&mut self) {
        for (p, &cell) in self.order.iter().enumerate() {
            self.position[cell] = p;
        }
    }

    /// Rearranges the positions before the last `free` for cells that hold
    /// `letters` (by cell): within each block of cells with as many
    /// neighbours (the centre's, then the edges'), the cells with the fewest
    /// letters are forced first, the rest of the order kept. A cell with few
    /// letters forced early leaves fewer partial boards for the walk, and its
    /// letters (the vowels, usually) are in more words: on 4x4 groups, 1.3 to
    /// 3x fewer CPU-s (see the prove files of `docs/notebook/`).
    pub(crate) fn arrange(&mut self, letters: &[Vec<u8>], free: usize) {
        let fixed = self.reading.len().saturating_sub(free);
        self.order.copy_from_slice(&self.reading);
        let neighbours = &self.neighbours;
        self.order[..fixed].sort_by_key(|&cell| {
            let held = letters.get(cell).map_or(0, Vec::len);
            (std::cmp::Reverse(neighbours[cell].count_ones()), held)
        });
        self.place();
    }

    /// The number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.order.len()
    }

    /// The cells in the order they are forced.
    pub(crate) fn order(&self) -> &[usize] {
        &self.order
    }

    /// How many of the last positions a group leaves free: the cells with
    /// the fewest neighbours (the corners), if there are at most 6 of them.
    pub(crate) fn free(&self) -> usize {
        let fewest = self.neighbours.iter().map(|n| n.count_ones()).min();
        let count = self
            .neighbours
            .iter()
            .filter(|n| Some(n.count_ones()) == fewest)
            .count();
        if count <= 6 { count } else { 0 }
    }

    /// Board rows.
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// Board columns.
    pub(crate) fn cols(&self) -> usize {
        self.cols
    }

    /// Where `cell` is in the order.
    #[inline(always)]
    pub(crate) fn position(&self, cell: usize) -> usize {
        self.position[cell]
    }

    /// The cells a path on `cell` may step to, as bits.
    #[inline(always)]
    pub(crate) fn neighbours(&self, cell: usize) -> u32 {
        self.neighbours[cell]
    }
}

/// The class being proved, in a [`Layout`]'s order: the letters each
/// position may hold, and the cells that may hold each letter.
#[derive(Debug, Clone)]
pub(crate) struct Cells {
    layout: Layout,
    /// `letters[position]`: its letters (0 = A).
    letters: Vec<Vec<u8>>,
    /// `letter_cells[letter]`: the cells that may hold it, as bits (kept
    /// in step with `letters`).
    letter_cells: [u32; 26],
}

impl Cells {
    /// The cells of `rules`' board, holding nothing yet.
    pub(crate) fn new(rules: &SearchRules) -> Cells {
        let layout = Layout::new(rules);
        Cells {
            letters: vec![Vec::new(); layout.cells()],
            letter_cells: [0; 26],
            layout,
        }
    }

    /// The layout.
    #[inline(always)]
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The number of positions.
    #[inline(always)]
    pub(crate) fn count(&self) -> usize {
        self.letters.len()
    }

    /// The letters position `p` may hold.
    #[inline(always)]
    pub(crate) fn letters(&self, p: usize) -> &[u8] {
        &self.letters[p]
    }

    /// The cells that may hold `letter`, as bits.
    #[inline(always)]
    pub(crate) fn letter_cells(&self) -> &[u32; 26] {
        &self.letter_cells
    }

    /// Holds `letters` (by cell, letters 0 = A), the order arranged for them
    /// with the last `free` positions left as read ([`Layout::arrange`]).
    pub(crate) fn hold(&mut self, letters: &[Vec<u8>], free: usize) {
        self.layout.arrange(letters, free);
        for p in 0..self.layout.cells() {
            let cell = self.layout.order[p];
            self.set_position(p, &letters[cell]);
        }
    }

    /// Position `p` holds `letters` from now on.
    pub(crate) fn set_position(&mut self, p: usize, letters: &[u8]) {
        self.letters[p].clear();
        self.letters[p].extend_from_slice(letters);
        let cell = self.layout.order[p];
        for (l, cells) in self.letter_cells.iter_mut().enumerate() {
            if letters.contains(&(l as u8)) {
                *cells |= 1 << cell;
            } else {
                *cells &= !(1 << cell);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(cells: &[&[u8]]) -> Vec<Vec<u8>> {
        cells
            .iter()
            .map(|l| l.iter().map(|b| b - b'a').collect())
            .collect()
    }

    #[test]
    fn cells_holding_fewer_letters_are_forced_first_within_their_block() {
        let mut layout = Layout::new(&SearchRules::standard(3, 3));
        assert_eq!(layout.order(), [4, 1, 3, 5, 7, 0, 2, 6, 8]);
        let cells = letters(&[
            b"ae", b"rst", b"ae", b"st", b"e", b"rt", b"a", b"s", b"aest",
        ]);
        // The last two positions (free) stay as read; the corners before them
        // hold as many letters, so they keep their order too.
        layout.arrange(&cells, 2);
        assert_eq!(layout.order(), [4, 7, 3, 5, 1, 0, 2, 6, 8]);
        layout.arrange(&cells, 0);
        assert_eq!(layout.order(), [4, 7, 3, 5, 1, 6, 0, 2, 8]);
        for (p, &cell) in layout.order().iter().enumerate() {
            assert_eq!(layout.position[cell], p);
        }
    }
}
