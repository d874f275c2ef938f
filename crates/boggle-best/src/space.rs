//! The boards a search may visit ([`Space`]: any letters, or what real dice
//! can show), a board during the search ([`State`]) and the moves between
//! neighbouring boards ([`Move`]).

use boggle_game::die::Die;
use boggle_game::face::{Face, QReads};
use boggle_game::random::{self, GameRng};
use boggle_game::rules::Rules;

use crate::unit;

/// Why the boards a search would visit cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpaceError {
    /// The dice are not one per cell.
    #[error("{dice} dice do not fill a {rows}x{cols} board")]
    DiceDoNotFill {
        /// Dice in the set.
        dice: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A die has no faces.
    #[error("a die has no faces")]
    FacelessDie,
}

/// The boards the search may visit: any letters, or what a set of real dice can show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    /// The distinct faces each die can show. With free letters there is one
    /// "die", the alphabet, and every cell holds it.
    pub(crate) dice: Vec<Vec<Face>>,
    pub(crate) real_dice: bool,
    /// Whether a `Q` face is `Qu` (for scoring all of a cell's faces at once).
    pub(crate) q: QReads,
}

/// What a [`Space`] for some rules draws its boards from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceOf {
    /// Any letter in any cell.
    Letters,
    /// The rules' own dice (letters still, where the rules draw letters by frequency).
    Dice,
}

impl Space {
    /// Any letter in any cell of a rows x cols board, each `Q` read as `q` says.
    pub(crate) fn letters(rows: usize, cols: usize, q: QReads) -> Space {
        let alphabet = (b'A'..=b'Z')
            .filter_map(Face::letter)
            .map(|face| face.with_q(q))
            .collect();
        Space {
            rows,
            cols,
            dice: vec![alphabet],
            real_dice: false,
            q,
        }
    }

    /// Boards `dice` can show on a rows x cols board: one die per cell, one face up.
    pub fn dice(rows: usize, cols: usize, dice: &[Die]) -> Result<Space, SpaceError> {
        if dice.len() != rows * cols {
            return Err(SpaceError::DiceDoNotFill {
                dice: dice.len(),
                rows,
                cols,
            });
        }
        let dice: Vec<Vec<Face>> = dice
            .iter()
            .map(|die| {
                let mut faces = die.faces().to_vec();
                faces.sort_unstable();
                faces.dedup();
                faces
            })
            .collect();
        if dice.iter().any(Vec::is_empty) {
            return Err(SpaceError::FacelessDie);
        }
        let q = if dice.iter().flatten().any(|face| *face == Face::QU) {
            QReads::Qu
        } else {
            QReads::Q
        };
        Ok(Space {
            rows,
            cols,
            dice,
            real_dice: true,
            q,
        })
    }

    /// The space for `rules`: their dice under [`SpaceOf::Dice`] (if they
    /// are real dice, not letter frequencies), any letters otherwise.
    pub fn for_rules(rules: &Rules, of: SpaceOf) -> Result<Space, SpaceError> {
        let dice = rules.dice.dice();
        if of == SpaceOf::Dice && !dice.is_empty() {
            Space::dice(rules.rows, rules.cols, &dice)
        } else {
            Ok(Space::letters(rules.rows, rules.cols, rules.q))
        }
    }

    pub(crate) fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// A uniformly random board of this space.
    pub(crate) fn random(&self, rng: &mut GameRng) -> State {
        let mut die_at: Vec<usize> = if self.real_dice {
            (0..self.cells()).collect()
        } else {
            vec![0; self.cells()]
        };
        random::shuffle(rng, &mut die_at);
        let faces = die_at
            .iter()
            .map(|&die| self.dice[die][random::below(rng, self.dice[die].len())])
            .collect();
        State { faces, die_at }
    }

    /// A random move: a swap of two different cells or a change of one cell to another face.
    pub(crate) fn random_move(&self, state: &State, swap_share: f64, rng: &mut GameRng) -> Move {
        let cells = self.cells();
        if cells >= 2 && unit(rng) < swap_share {
            let a = random::below(rng, cells);
            let b = (a + 1 + random::below(rng, cells - 1)) % cells;
            return Move::Swap(a, b);
        }
        let cell = random::below(rng, cells);
        let faces = &self.dice[state.die_at[cell]];
        let current = state.faces[cell];
        if faces.len() < 2 {
            return Move::Set(cell, current);
        }
        // Draw among the other faces: the current one's slot stands for the last face.
        let pick = faces[random::below(rng, faces.len() - 1)];
        let face = if pick == current {
            faces[faces.len() - 1]
        } else {
            pick
        };
        Move::Set(cell, face)
    }

    /// Every move that changes the board's score-relevant faces: each cell to
    /// each other face of its die, and each swap of two cells with different
    /// faces (what a chain's neighbourhood is checked against).
    #[cfg(test)]
    pub(crate) fn all_moves(&self, state: &State) -> Vec<Move> {
        let mut moves = Vec::new();
        for (cell, &current) in state.faces.iter().enumerate() {
            for &face in &self.dice[state.die_at[cell]] {
                if face != current {
                    moves.push(Move::Set(cell, face));
                }
            }
        }
        for a in 0..self.cells() {
            for b in a + 1..self.cells() {
                if state.faces[a] != state.faces[b] {
                    moves.push(Move::Swap(a, b));
                }
            }
        }
        moves
    }
}

/// A board during the search: its faces and which die sits in each cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct State {
    pub(crate) faces: Vec<Face>,
    pub(crate) die_at: Vec<usize>,
}

/// One step from a board to a neighbouring one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Move {
    /// Turn the die in a cell to show a face.
    Set(usize, Face),
    /// Exchange the dice in two cells.
    Swap(usize, usize),
}

impl State {
    /// Applies `mv` and returns the move that undoes it.
    pub(crate) fn apply(&mut self, mv: Move) -> Move {
        match mv {
            Move::Set(cell, face) => {
                let old = std::mem::replace(&mut self.faces[cell], face);
                Move::Set(cell, old)
            }
            Move::Swap(a, b) => {
                self.faces.swap(a, b);
                self.die_at.swap(a, b);
                mv
            }
        }
    }
}
