//! The search engine behind `WordFind`: the prefix trie, the neighbour tables,
//! the walks that find every word on a board, where one given word lies on a
//! board, and hot code compiled for the processor's vector instructions. The
//! only place with `unsafe` code (in `search`, `vector` and `cpu`, each
//! block with the reason it is sound).

pub mod cpu;
pub(crate) mod neighbours;
pub mod path;
pub mod search;
pub mod trie;
pub(crate) mod vector;
