//! The game board suite: construction, letters by row and column, showing it.

use boggle::{BoardError, GameBoard};

#[test]
fn letters_by_row_and_column() {
    let board = GameBoard::new("GNLTHIFHHISTDJAR").expect("16 letters");
    let expected = ["GNLT", "HIFH", "HIST", "DJAR"];
    for (row, letters) in expected.iter().enumerate() {
        for (col, letter) in letters.chars().enumerate() {
            assert_eq!(board.get_letter_by_row_col(row, col), letter);
        }
    }
}

#[test]
fn show_board_is_four_spaced_rows() {
    let board = GameBoard::new("gnlthifhhistdjar").expect("any case");
    assert_eq!(board.show_board(), "G N L T\nH I F H\nH I S T\nD J A R\n");
    let q = GameBoard::new("QQQQQQQQQQQQQQQQ").expect("Q is a plain letter here");
    assert_eq!(q.show_board(), "Q Q Q Q\n".repeat(4));
}

#[test]
fn wrong_boards_are_errors() {
    assert_eq!(
        GameBoard::new(""),
        Err(BoardError::WrongLength {
            expected: 16,
            got: 0
        })
    );
    assert_eq!(
        GameBoard::new("ABCDEFGHIJKLMNOPQ"),
        Err(BoardError::WrongLength {
            expected: 16,
            got: 17
        })
    );
    let err = GameBoard::new("ABCD EFGHIJKLMNO").expect_err("space");
    assert!(err.to_string().contains("position 5"), "{err}");
}
