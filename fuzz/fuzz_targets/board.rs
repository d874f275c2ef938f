//! Fuzzes the board parsers: any text and any shape give a board or a
//! `BoardError` (never a panic); a board shown and read back is the same board,
//! and every word the search finds on it has a path.
#![no_main]

use std::sync::{Arc, OnceLock};

use boggle_engine::path;
use boggle_game::{Dictionary, GameBoard, MoveRule, QReads, Rules, WordFind};
use libfuzzer_sys::fuzz_target;

fn dictionary() -> Arc<Dictionary> {
    static DICT: OnceLock<Arc<Dictionary>> = OnceLock::new();
    Arc::clone(DICT.get_or_init(|| {
        let words = [
            "A", "AB", "ABA", "QUA", "QUAQUA", "THE", "ETH", "ZZZ", "BEAT", "TEA",
        ];
        Arc::new(Dictionary::from_words(words))
    }))
}

fuzz_target!(|data: &[u8]| {
    let [rows, cols, flags, rest @ ..] = data else {
        return;
    };
    // Shapes up to 9x9 exercise both the bitmask and the bit-vector search paths.
    let (rows, cols) = (usize::from(rows % 10), usize::from(cols % 10));
    let q = if flags & 1 != 0 {
        QReads::Qu
    } else {
        QReads::Q
    };
    let text = String::from_utf8_lossy(rest);
    let _ = GameBoard::new(&text);
    for board in [
        GameBoard::from_letters(&text, rows, cols, q),
        GameBoard::from_cells(text.split_whitespace(), rows, cols, q),
    ]
    .into_iter()
    .flatten()
    {
        assert_eq!((board.rows(), board.cols()), (rows, cols));
        let shown = board.show_board();
        let again = GameBoard::from_cells(shown.split_whitespace(), rows, cols, QReads::Q);
        assert_eq!(again.as_ref(), Ok(&board), "shown as {shown:?}");
        for moves in [MoveRule::NoUp, MoveRule::EightNeighbours] {
            let rules = Rules {
                rows,
                cols,
                moves,
                q,
                min_len: 1,
                ..Rules::project4()
            };
            let find = WordFind::with_rules(dictionary(), rules);
            let words = find.get_all_words(&board);
            for word in &words {
                assert!(path::find_path(&board, moves, word).is_some(), "{word}");
            }
            let total: u32 = words.iter().map(|w| find.rules().word_score(w.len())).sum();
            assert_eq!(find.total_points(&board), total);
        }
    }
});
