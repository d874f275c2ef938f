//! Finding where a given word lies on a board: the path a player traced, for
//! highlighting it, for rules without a dictionary (any string on the board
//! scores) and for checking the search's answers independently; and
//! [`trace`], the path of a word still being typed, which both full screens
//! (the tui's and the network game's) highlight as the player types.

use crate::neighbours::Neighbours;
use crate::rules::{Grid, MoveRule};

/// The cells (row-major indices) of one path that spells `word` on `board`
/// under `moves`, or `None` if there is none. `word` is compared case-insensitively;
/// each face must match whole (`Qu` matches `QU`, never a lone `Q`).
pub fn find_path(board: &(impl Grid + ?Sized), moves: MoveRule, word: &str) -> Option<Vec<usize>> {
    let word = word.to_ascii_uppercase();
    let word = word.as_bytes();
    if word.is_empty() {
        return None;
    }
    let neighbours = Neighbours::new(board.rows(), board.cols(), moves);
    let mut path = Vec::new();
    let mut used = vec![false; board.faces().len()];
    (0..board.faces().len())
        .any(|cell| extend(board, &neighbours, word, cell, &mut used, &mut path))
        .then_some(path)
}

/// The cells of the typed letters' path under `moves`, if they can be formed:
/// [`find_path`] for a word still being typed. A trailing `Q` also matches a
/// `Qu` face, so the highlight does not flicker off between typing `Q` and `U`.
pub fn trace(board: &(impl Grid + ?Sized), moves: MoveRule, typed: &str) -> Option<Vec<usize>> {
    find_path(board, moves, typed).or_else(|| {
        let ends_in_q = typed.ends_with(['q', 'Q']);
        ends_in_q
            .then(|| find_path(board, moves, &format!("{typed}U")))
            .flatten()
    })
}

/// Whether `rest` can be spelled starting at `cell`; leaves the path in `path` if so.
fn extend(
    board: &(impl Grid + ?Sized),
    neighbours: &Neighbours,
    rest: &[u8],
    cell: usize,
    used: &mut [bool],
    path: &mut Vec<usize>,
) -> bool {
    let face = board.faces()[cell];
    let letters = face.as_bytes();
    if used[cell] || letters.is_empty() || !rest.starts_with(letters) {
        return false;
    }
    let rest = &rest[letters.len()..];
    used[cell] = true;
    path.push(cell);
    let done = rest.is_empty()
        || neighbours
            .of(cell)
            .iter()
            .any(|&next| extend(board, neighbours, rest, usize::from(next), used, path));
    if !done {
        used[cell] = false;
        path.pop();
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::QReads;
    use crate::testing::grid;

    #[test]
    fn finds_paths_under_each_move_rule() {
        let board = grid("BENHLAUMITLZRGAN", 4, 4, QReads::Q);
        assert_eq!(
            find_path(&board, MoveRule::NoUp, "eat"),
            Some(vec![1, 5, 9])
        );
        // LAB goes up from A to B: fine with 8 neighbours, not under no-up.
        assert_eq!(
            find_path(&board, MoveRule::EightNeighbours, "LAB"),
            Some(vec![4, 5, 0])
        );
        assert_eq!(find_path(&board, MoveRule::NoUp, "LAB"), None);
        // ZIT would wrap around from Z to I.
        assert_eq!(find_path(&board, MoveRule::EightNeighbours, "ZIT"), None);
        assert_eq!(find_path(&board, MoveRule::NoUp, ""), None);
    }

    #[test]
    fn qu_faces_match_whole() {
        let board = grid("QITX", 2, 2, QReads::Qu);
        assert_eq!(
            find_path(&board, MoveRule::EightNeighbours, "QUIT"),
            Some(vec![0, 1, 2])
        );
        assert_eq!(find_path(&board, MoveRule::EightNeighbours, "QIT"), None);
    }

    #[test]
    fn a_typed_q_is_traced_onto_a_qu_face() {
        let board = grid("QITX", 2, 2, QReads::Qu);
        assert_eq!(trace(&board, MoveRule::EightNeighbours, "Q"), Some(vec![0]));
        assert_eq!(
            trace(&board, MoveRule::EightNeighbours, "QUI"),
            Some(vec![0, 1])
        );
        assert_eq!(find_path(&board, MoveRule::EightNeighbours, "Q"), None);
    }

    #[test]
    fn a_cell_is_used_once() {
        let board = grid("ABXX", 2, 2, QReads::Q);
        assert!(find_path(&board, MoveRule::EightNeighbours, "ABA").is_none());
    }
}
