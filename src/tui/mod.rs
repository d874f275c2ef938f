//! `boggle tui`: the full-screen game. [`app`] holds the state and its
//! transitions (no terminal), [`ui`] draws it on any ratatui backend,
//! [`terminal`] reads and draws the terminal through crossterm. The player's
//! games played and best scores are [`crate::play::records`]'s.

pub(crate) mod app;
pub(crate) mod terminal;
pub(crate) mod ui;
