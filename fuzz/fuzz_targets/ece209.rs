//! Fuzzes spec 001's Boggle-ish on any input (its seed and timer questions and
//! the words): it ends without a panic and its total is the sum of the points
//! it printed for each word.
#![no_main]

use boggle_game::Rules;
use boggle_game::rules::Preset;
use boggle_play::modes::boggleish::{self, Answers};
use boggle_play::player::keyboard::{FakeClock, Scripted, Timed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Typed lines on a fake clock, so the timer never sleeps.
    let clock = FakeClock::default();
    let lines: Vec<(u64, &str)> = text.lines().map(|line| (0, line)).collect();
    let mut keys = Timed::new(Scripted::new(clock.clone(), lines), clock);
    let mut out = Vec::new();
    let rules = Rules::preset(Preset::Ece209);
    let total = boggleish::play(&mut keys, &mut out, &rules, Answers::default())
        .expect("a Vec takes every write");
    let out = String::from_utf8_lossy(&out);
    let printed: u32 = out
        .lines()
        .filter(|line| !line.contains("Total score: "))
        .filter_map(|line| {
            line.rsplit_once(": ")?
                .1
                .split(' ')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .sum();
    if out.contains("Total score: ") {
        assert_eq!(printed, total, "{out}");
    }
});
