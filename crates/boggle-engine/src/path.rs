//! Finding where a given word lies on a board: the path a player traced, for
//! highlighting it, for rules without a dictionary (any string on the board
//! scores) and for checking the search's answers independently; and
//! [`trace`], the path of a word still being typed, which both full screens
//! (the tui's and the network game's) highlight as the player types.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::neighbours::Neighbours;
use crate::rules::{Grid, MoveRule};

/// Most cells a path search steps into before it gives up and answers "no
/// path". A real word on a real board needs a few hundred; the bound is for
/// boards like a 5x5 of one letter, where a word that almost fits would
/// otherwise be tried along every one of billions of paths.
pub(crate) const PATH_STEPS: usize = 100_000;

/// The cells (row-major indices) of one path that spells `word` on `board`
/// under `moves`, or `None` if there is none. `word` is compared case-insensitively;
/// each face must match whole (`Qu` matches `QU`, never a lone `Q`).
///
/// Bounded: a word whose letters the board's faces cannot supply is refused
/// before any walk; a cell and set of used cells already known to lead
/// nowhere is not walked again; and past 100,000 steps the search
/// answers `None`, as if there were no path (only crafted boards get there).
pub fn find_path(board: &(impl Grid + ?Sized), moves: MoveRule, word: &str) -> Option<Vec<usize>> {
    let word = word.to_ascii_uppercase();
    let word = word.as_bytes();
    if word.is_empty() || !letters_suffice(board, word) {
        return None;
    }
    let cells = board.faces().len();
    let mut walk = Walk {
        neighbours: Neighbours::new(board.rows(), board.cols(), moves),
        path: Vec::new(),
        used: vec![false; cells],
        // A dead end is remembered by its cell and used cells, as a bit set of
        // at most 128 cells; larger boards go without (the budget still holds).
        used_bits: 0,
        dead_ends: (cells <= 128).then(HashSet::default),
        steps_left: PATH_STEPS,
    };
    (0..cells)
        .any(|cell| walk.extend(board, word, cell) == Step::Found)
        .then_some(walk.path)
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

/// Whether the board's faces hold every letter of `word` as often as it has
/// it: each cell is used once, so a path can spell no more of a letter than that.
fn letters_suffice(board: &(impl Grid + ?Sized), word: &[u8]) -> bool {
    let mut count = [0i64; 256];
    for &letter in word {
        count[usize::from(letter)] += 1;
    }
    for face in board.faces() {
        for &letter in face.as_bytes() {
            count[usize::from(letter)] -= 1;
        }
    }
    count.iter().all(|&n| n <= 0)
}

/// Where one step of the walk led.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The whole word was spelt; the path holds it.
    Found,
    /// Not from here.
    DeadEnd,
    /// The step budget ran out: stop everywhere.
    OutOfSteps,
}

/// One path search's state: the path so far, its cells, the dead ends met and the steps left.
struct Walk {
    neighbours: Neighbours,
    path: Vec<usize>,
    used: Vec<bool>,
    used_bits: u128,
    dead_ends: Option<HashSet<(usize, u128), BuildHasherDefault<MixHasher>>>,
    steps_left: usize,
}

impl Walk {
    /// Whether `rest` can be spelled starting at `cell`; leaves the path in `path` if so.
    fn extend(&mut self, board: &(impl Grid + ?Sized), rest: &[u8], cell: usize) -> Step {
        let face = board.faces()[cell];
        let letters = face.as_bytes();
        if self.used[cell] || letters.is_empty() || !rest.starts_with(letters) {
            return Step::DeadEnd;
        }
        let rest = &rest[letters.len()..];
        if rest.is_empty() {
            self.path.push(cell);
            return Step::Found;
        }
        // The used cells fix how much of the word is spelt, so (cell, used)
        // fixes what is left: a dead end once is a dead end always.
        let key = (cell, self.used_bits);
        if self
            .dead_ends
            .as_ref()
            .is_some_and(|seen| seen.contains(&key))
        {
            return Step::DeadEnd;
        }
        if self.steps_left == 0 {
            return Step::OutOfSteps;
        }
        self.steps_left -= 1;
        self.used[cell] = true;
        self.used_bits ^= bit(cell);
        self.path.push(cell);
        let mut outcome = Step::DeadEnd;
        let neighbours = self.neighbours.of(cell).len();
        for i in 0..neighbours {
            let next = usize::from(self.neighbours.of(cell)[i]);
            outcome = self.extend(board, rest, next);
            if outcome != Step::DeadEnd {
                break;
            }
        }
        if outcome != Step::Found {
            self.used[cell] = false;
            self.used_bits ^= bit(cell);
            self.path.pop();
        }
        if outcome == Step::DeadEnd
            && let Some(seen) = self.dead_ends.as_mut()
        {
            seen.insert(key);
        }
        outcome
    }
}

/// A multiply-and-rotate hasher (FxHash's) for the dead ends' keys: the
/// standard SipHash cost more than the step it saved, and the keys are our
/// own cells, not an attacker's choice of collisions beyond the step budget.
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// `cell`'s bit in a used-cells set (cells past 127 have none: no set is kept for them).
fn bit(cell: usize) -> u128 {
    1u128.checked_shl(cell as u32).unwrap_or(0)
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

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "a bound for a hang (unbounded, this walk takes hours), not a timing claim"
    )]
    fn a_one_letter_board_is_answered_within_the_step_budget() {
        // 24 A's and a letter the board lacks: refused before any walk.
        let board = grid(&"A".repeat(25), 5, 5, QReads::Q);
        let std_deadline = std::time::Instant::now();
        assert_eq!(
            trace(
                &board,
                MoveRule::EightNeighbours,
                &format!("{}B", "A".repeat(24))
            ),
            None
        );
        // 24 A's and the board's one B, which no path of 24 A's ends beside:
        // the walk itself is bounded (dead ends remembered, steps capped).
        let mut letters = "A".repeat(24);
        letters.insert(12, 'B');
        let board = grid(&letters, 5, 5, QReads::Q);
        for word in [
            format!("{}B", "A".repeat(24)),
            format!("B{}", "A".repeat(23)),
        ] {
            let _ = find_path(&board, MoveRule::EightNeighbours, &word);
            let _ = find_path(&board, MoveRule::NoUp, &word);
        }
        // A bound for a hang, not a timing claim: unbounded, this takes hours.
        assert!(std_deadline.elapsed() < std::time::Duration::from_secs(5));
        // Words that are there are still found on such boards.
        let path = find_path(&board, MoveRule::EightNeighbours, "AAAAB").unwrap();
        assert_eq!(path.len(), 5);
        assert_eq!(path[4], 12);
    }
}
