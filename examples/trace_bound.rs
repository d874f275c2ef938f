//! How long the engine's path search takes on the boards that once made it
//! hang (the path count grows as a power of the board's size): a 5x5 board of one letter and words of 24 of that
//! letter and another, under both move rules. Run with
//! `cargo run --release --example trace_bound`; each line is one search.

#![expect(clippy::disallowed_methods, reason = "a study timed on the real clock")]

use std::io::Write;
use std::time::Instant;

use boggle::GameBoard;
use boggle_engine::path::{find_path, trace};
use boggle_engine::rules::MoveRule;

fn main() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let mut with_b = "A".repeat(24);
    with_b.insert(12, 'B');
    for letters in ["A".repeat(25), with_b] {
        let Ok(board) = GameBoard::from_letters(&letters, 5, 5, false) else {
            continue;
        };
        for moves in [MoveRule::EightNeighbours, MoveRule::NoUp] {
            for word in [
                format!("{}B", "A".repeat(24)),
                format!("B{}", "A".repeat(24)),
                "A".repeat(25),
            ] {
                let start = Instant::now();
                let found = if word.ends_with('B') {
                    trace(&board, moves, &word)
                } else {
                    find_path(&board, moves, &word)
                };
                writeln!(
                    out,
                    "{letters} {moves:?} {word}: {:?} in {:.3} ms",
                    found.map(|path| path.len()),
                    start.elapsed().as_secs_f64() * 1000.0
                )?;
            }
        }
    }
    Ok(())
}
