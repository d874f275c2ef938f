//! The project's integration tests as one binary (as ripgrep keeps its own):
//! one module per area, the helpers they share in `common/`. One binary links
//! the crate and its dependencies once instead of once per file.
//!
//! Cargo still discovers `tests/*.rs` and `tests/*/main.rs` on its own
//! (autotests stay on), so a test file dropped into `tests/` builds and runs
//! as a binary of its own beside this one. Run one area with
//! `cargo test --test it cli::`; `make reference` runs the ignored
//! `reference::` tests against the files outside the repository.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test may report what it measured (the harness captures the output), \
              and its helpers fail the test that called them, as the tests themselves do"
)]

mod common;

mod bench;
mod best;
mod boards;
mod cli;
mod console_pty;
mod deploy;
mod dice_roll;
mod dictionary;
mod game;
mod game_board;
mod hostile;
mod hosting;
mod hunt;
mod net;
mod net_faults;
mod net_limits;
mod net_pty;
mod net_store;
mod presets;
mod properties;
mod prove;
mod reference;
mod seats;
mod shell;
mod solve;
mod tidy;
mod timed;
mod transcript;
mod tui_pty;
mod versus;
mod web_attacks;
mod web_browser;
mod web_check;
mod web_daily;
mod web_leave;
mod web_links;
mod web_pace;
mod web_refusals;
mod web_visits;
mod web_words;
mod word_find;
mod word_lists;
