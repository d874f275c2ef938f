//! Fuzzes spec 002's board files and one-line board lists: any text either
//! gives a board of the size it claims or an error naming a line that exists;
//! a board read back from its own cells is the same board.
#![no_main]

use boggle_game::{GameBoard, QReads};
use boggle_play::board_file::{parse_board_file, parse_board_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, rest)) = data.split_first() else {
        return;
    };
    let q = if knobs & 1 != 0 {
        QReads::Qu
    } else {
        QReads::Q
    };
    let text = String::from_utf8_lossy(rest);
    match parse_board_file(&text, q) {
        Ok(board) => {
            let cells: Vec<String> = board.faces().iter().map(ToString::to_string).collect();
            let again = GameBoard::from_cells(
                cells.iter().map(String::as_str),
                board.rows(),
                board.cols(),
                q,
            )
            .expect("a board's own cells read back");
            assert_eq!(again, board);
        }
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
        }
    }
    let (rows, cols) = (usize::from(knobs >> 1 & 7) + 1, usize::from(knobs >> 4) + 1);
    if let Ok(board) = parse_board_line(&text, rows, cols, q) {
        assert_eq!((board.rows(), board.cols()), (rows, cols));
    }
});
