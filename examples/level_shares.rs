//! Measures what each computer `--level` knows: the share of a random board's
//! points it takes when the human finds nothing, over 2,000 boards per preset
//! with the player list. docs/GUIDE.md's table of levels comes from this:
//! `cargo run --release --example level_shares`.

#![expect(clippy::disallowed_types, reason = "a study over a preset's rules")]
#![allow(
    clippy::print_stdout,
    reason = "an example's job is printing what it measured"
)]

use std::sync::Arc;

use boggle::dictionary::Level;
use boggle::{Dictionary, GameBoard, Preset, Rules, WordFind};

const BOARDS: usize = 2_000;
const LEVELS: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Perfect];

fn main() {
    let dictionary = Arc::new(Dictionary::player());
    for preset in [Preset::Cs106b, Preset::Classic] {
        let rules = Rules::preset(preset);
        let find = WordFind::with_rules(Arc::clone(&dictionary), rules.clone());
        let mut rng = boggle::random::seeded(7);
        let mut shares = vec![Vec::new(); LEVELS.len()];
        for _ in 0..BOARDS {
            let board: GameBoard = GameBoard::random(&rules, &mut rng);
            let words = find.get_all_words(&board);
            let points = |level: Level| -> u32 {
                words
                    .iter()
                    .filter(|w| dictionary.rank(w).is_none_or(|rank| level.knows(rank)))
                    .map(|w| rules.word_score(w.len()))
                    .sum()
            };
            let total = points(Level::Perfect);
            if total > 0 {
                for (i, &level) in LEVELS.iter().enumerate() {
                    shares[i].push((f64::from(points(level)) / f64::from(total), points(level)));
                }
            }
        }
        println!("{preset}:");
        for (level, mut share) in LEVELS.iter().zip(shares) {
            share.sort_by(|a, b| a.0.total_cmp(&b.0));
            let at = |q: usize| 100.0 * share[share.len() * q / 10].0;
            let mut points: Vec<u32> = share.iter().map(|s| s.1).collect();
            points.sort_unstable();
            let known = dictionary
                .words()
                .filter(|w| dictionary.rank(w).is_none_or(|rank| level.knows(rank)))
                .count();
            println!(
                "  {level:?}: {known} words known; median share {:.0}% (p10 {:.0}%, p90 {:.0}%); median points {}",
                at(5),
                at(1),
                at(9),
                points[points.len() / 2]
            );
        }
    }
}
