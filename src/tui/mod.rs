//! `boggle tui`: the full-screen game. [`app`] holds the state and its
//! transitions (no terminal), [`ui`] draws it on any ratatui backend,
//! [`terminal`] reads and draws the terminal through crossterm, [`records`] keeps the player's
//! games played and best scores.

pub mod app;
pub mod records;
pub mod terminal;
pub mod ui;
