//! The search engine behind `WordFind`: the prefix trie, the neighbour tables,
//! the depth-first walk that finds every word on a board, and where one given
//! word lies on a board. The only place with `unsafe` code (in `search`, each
//! block with the reason it is sound).

pub(crate) mod neighbours;
pub mod path;
pub mod search;
pub mod trie;
pub(crate) mod vector;
