//! What a die shows and a board cell holds: [`Face`], one letter, a
//! two-letter face such as `Qu` or `Th`, or a blank, and [`QReads`], whether
//! a board reads a `Q` as `Qu`. The search engine defines both (the lowest
//! layer that needs them); they are re-exported here beside the design's
//! classes, where the game's code and its readers look for them.

pub use boggle_engine::{Face, QReads};
