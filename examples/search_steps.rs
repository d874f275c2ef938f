//! Measures how many steps the search takes on real boards, against the
//! budget a crafted board hits (`boggle_engine::search::STEP_BUDGET`):
//! `cargo run --release --example search_steps [WORD_FILE]` (default: the
//! player list). docs/GUIDE.md's "Reliability" section quotes its figures.

#![expect(clippy::disallowed_types, reason = "a study over a preset's rules")]
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "an example's job is printing what it measured"
)]

use std::sync::Arc;

use boggle::{Dictionary, GameBoard, Preset, Rules, WordFind};
use boggle_engine::search::STEP_BUDGET;

fn main() {
    let dictionary = match std::env::args().nth(1) {
        Some(path) => match Dictionary::from_file(&path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        },
        None => Dictionary::player(),
    };
    let dictionary = Arc::new(dictionary);
    println!(
        "budget: {STEP_BUDGET} steps; words: {}",
        dictionary.describe()
    );
    for (size, boards) in [
        (4, 100_000),
        (5, 20_000),
        (6, 10_000),
        (10, 2_000),
        (64, 10),
    ] {
        let rules = Rules::sized(Preset::Algs4, size, size);
        let find = WordFind::with_rules(Arc::clone(&dictionary), rules.clone());
        let mut searcher = find.searcher();
        let mut rng = boggle::random::seeded(size as u64);
        let (mut most, mut total) = (0u64, 0u64);
        for _ in 0..boards {
            let board = GameBoard::random(&rules, &mut rng);
            searcher.score(&board);
            most = most.max(searcher.steps());
            total += searcher.steps();
        }
        println!(
            "{size}x{size} ({} dice), {boards} boards: mean {} steps, most {most} ({}x under the budget)",
            rules.dice,
            total / boards as u64,
            STEP_BUDGET / most.max(1)
        );
    }
}
