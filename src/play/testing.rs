//! What the play modules' unit tests share with the integration tests: a
//! temporary folder, text assertions that show both sides, and the words of
//! spec 004's example board. One file serves both: the integration tests'
//! `common/shared.rs`, included here by path, as this crate's unit tests
//! cannot link the integration tests' crate.

#[path = "../../tests/it/common/shared.rs"]
mod shared;
pub(crate) use shared::{EXAMPLE_WORDS, TempDir, assert_contains, assert_text};
