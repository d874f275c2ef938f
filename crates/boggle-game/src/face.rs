//! What a die shows and a board cell holds: [`Face`], one letter, a
//! two-letter face such as `Qu` or `Th`, or a blank. The search engine
//! defines it (the lowest layer that needs it); it is re-exported here beside
//! the design's classes, where the game's code and its readers look for it.

pub use boggle_engine::face::Face;
