//! The board as the full screens draw it: the largest cells that fit
//! (boxed 7x3, boxed 5x3, bare 4x1), the faces, and a path in reverse video
//! with its cells numbered in order. The tui's game and the network game's
//! screen both draw their boards here.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Padding, Paragraph};

use super::Look;
use boggle_game::face::Face;
use boggle_game::game_board::GameBoard;

/// How big one board cell is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellSize {
    width: u16,
    height: u16,
    boxed: bool,
}

/// Boxed cells from 17x8 down (a large terminal, 120x40 and up, gets a board
/// that fills it), then boxed 7x3 (80x24), boxed 5x3 (60 columns), else bare
/// 4x1 cells; every size numbers the path's cells in order. The large ones
/// keep a terminal cell's 1:2 shape, so the board stays square, and none
/// is used below [`LARGE_SCREEN`], whose screens stay as they were.
pub(super) const CELL_SIZES: [CellSize; 7] = [
    boxed(17, 8),
    boxed(15, 7),
    boxed(13, 6),
    boxed(11, 5),
    boxed(7, 3),
    boxed(5, 3),
    CellSize {
        width: 4,
        height: 1,
        boxed: false,
    },
];

/// A boxed cell of `width` x `height`.
const fn boxed(width: u16, height: u16) -> CellSize {
    CellSize {
        width,
        height,
        boxed: true,
    }
}

/// The columns and rows `board` takes with cells of `cell`.
pub(crate) fn board_size(board: &GameBoard, cell: CellSize) -> (u16, u16) {
    let cols = u16::try_from(board.cols()).unwrap_or(u16::MAX);
    let rows = u16::try_from(board.rows()).unwrap_or(u16::MAX);
    (
        cols.saturating_mul(cell.width),
        rows.saturating_mul(cell.height),
    )
}

/// Screens smaller than this keep the cells sized for 80x24 (at most 7x3):
/// the larger ones are for a terminal with room to spare, and a board
/// filling an 80x24 screen would squeeze the words beside it.
const LARGE_SCREEN: (u16, u16) = (100, 30);

/// The largest cells with which `board` fits in `width` x `height` on a
/// screen of `screen`, or `None` when even the smallest do not.
pub(crate) fn largest_cell(
    board: &GameBoard,
    (width, height): (u16, u16),
    screen: Rect,
) -> Option<CellSize> {
    let large = screen.width >= LARGE_SCREEN.0 && screen.height >= LARGE_SCREEN.1;
    CELL_SIZES
        .iter()
        .copied()
        .filter(|cell| large || cell.height <= 3)
        .find(|&cell| {
            let (w, h) = board_size(board, cell);
            w <= width && h <= height
        })
}

/// How a face is written in its cell: `A`, `Qu`, `Th`, or blank.
pub(super) fn face_text(face: Face) -> String {
    let mut chars = face.as_str().chars();
    match chars.next() {
        Some(first) => first.to_string() + &chars.as_str().to_ascii_lowercase(),
        None => String::new(),
    }
}

/// Draws `board` with cells of `cell`, centred in `area`, the cells of
/// `path` highlighted and numbered in order.
pub(crate) fn draw_board(
    frame: &mut Frame,
    board: &GameBoard,
    path: &[usize],
    (cell, area): (CellSize, Rect),
    palette: Look,
) {
    let (board_w, board_h) = board_size(board, cell);
    let left = area.x + (area.width.saturating_sub(board_w)) / 2;
    let top = area.y + (area.height.saturating_sub(board_h)) / 2;
    let cols = board.cols();
    for (index, &face) in board.faces().iter().enumerate() {
        let (row, col) = (index / cols, index % cols);
        let x = left + u16::try_from(col).unwrap_or(0) * cell.width;
        let y = top + u16::try_from(row).unwrap_or(0) * cell.height;
        let rect = Rect::new(x, y, cell.width, cell.height);
        let step = path.iter().position(|&cell| cell == index);
        let style = if step.is_some() {
            palette.highlight()
        } else {
            Style::default()
        };
        if cell.boxed {
            let text = Paragraph::new(face_text(face))
                .alignment(Alignment::Center)
                .style(style);
            // The face in the middle row of a tall cell, not on its top row.
            let middle = cell.height.saturating_sub(3) / 2;
            // The step number on the border shows the path's order, not just its cells.
            let mut block = Block::default()
                .borders(Borders::ALL)
                .padding(Padding::top(middle));
            if let Some(step) = step {
                block = block.title((step + 1).to_string());
            }
            frame.render_widget(text.block(block), rect);
        } else {
            // No border to carry the step number: it follows the face, in the
            // cell's last two columns (" B3 ", "Qu12").
            let number = step.map_or(String::new(), |step| (step + 1).to_string());
            let text = format!("{:>2}{number:<2}", face_text(face));
            frame.render_widget(Paragraph::new(text).style(style), rect);
        }
    }
}
