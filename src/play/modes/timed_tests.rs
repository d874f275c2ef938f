//! Timed turns on a fake clock, so no test sleeps or measures time: the
//! console turn ends when `--time` runs out with the time left at each
//! prompt, and spec 001's waiting timer gives its cues. The binary's own
//! timer is tests/it/timed.rs.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use std::sync::Arc;
use std::time::Duration;

use boggle_game::{Dictionary, Game, Preset, Rules, WordFind};

use crate::play::modes::boggleish::{self, Answers};
use crate::play::modes::console::{self, Options};
use crate::play::player::keyboard::{FakeClock, Scripted, Timed};
use crate::play::testing::{EXAMPLE_WORDS, assert_text};

fn timed(clock: &FakeClock, lines: &[(u64, &str)]) -> Timed<Scripted, FakeClock> {
    Timed::new(
        Scripted::new(clock.clone(), lines.iter().copied()),
        clock.clone(),
    )
}

#[test]
fn the_console_turn_ends_when_the_time_runs_out() {
    let clock = FakeClock::default();
    // The board is typed at once; two words in 10 s, then a word still being typed at 60 s.
    let mut keys = timed(
        &clock,
        &[
            (0, "NIEHGTIBGUALRWGC"),
            (4, "bag  zzz"),
            (6, "lag"),
            (99, "tag"),
        ],
    );
    let find = WordFind::with_dictionary(Arc::new(Dictionary::from_words(EXAMPLE_WORDS)));
    let options = Options {
        rules: Rules::project4(),
        time: Some(Duration::from_secs(60)),
        board: None,
        terminal: false,
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    let game = console::play_with(&mut keys, &mut out, &mut err, &options, |board| {
        Ok(Game::from_board(board.expect("a typed board"), &find))
    })
    .expect("writes to a Vec succeed");
    let out = String::from_utf8_lossy(&out);
    let expected = format!(
        "{}N I E H\nG T I B\nG U A L\nR W G C\n\
         [60s left] Enter a word (q to quit): \
         [56s left] Enter a word: \tNot worth any points\n\
         [56s left] Enter a word: \
         [50s left] Enter a word: \nTime's up!\n\
         You got 2 points and had 1 incorrect guess.\n\
         There were 23 points possible\n{}\n",
        console::BOARD_PROMPT,
        "=".repeat(60)
    );
    assert!(out.starts_with(&expected), "{out}");
    assert_eq!(game.get_score(), 2);
    assert_eq!(clock.elapsed(), Duration::from_secs(60));
}

/// At a terminal the end of input (Ctrl-D) leaves the cursor on the prompt's
/// line, so the summary starts on a new line there; a piped game's
/// transcript is spec 004's, byte for byte.
#[test]
fn at_a_terminal_the_summary_after_the_end_of_input_starts_on_its_own_line() {
    for (terminal, after_prompt) in [(true, "\nYou got"), (false, "You got")] {
        let clock = FakeClock::default();
        let mut keys = timed(&clock, &[(0, "NIEHGTIBGUALRWGC"), (1, "bag")]);
        let find = WordFind::with_dictionary(Arc::new(Dictionary::from_words(EXAMPLE_WORDS)));
        let options = Options {
            terminal,
            ..Options::default()
        };
        let mut out = Vec::new();
        console::play_with(&mut keys, &mut out, &mut Vec::new(), &options, |board| {
            Ok(Game::from_board(board.expect("a typed board"), &find))
        })
        .expect("writes to a Vec succeed");
        let out = String::from_utf8_lossy(&out);
        assert!(
            out.contains(&format!("Enter a word: {after_prompt} 1 point")),
            "terminal {terminal}: {out}"
        );
    }
}

#[test]
fn the_boggleish_timer_gives_cues_then_scores_words() {
    let clock = FakeClock::default();
    let mut keys = timed(&clock, &[(30, "TIE QUANT"), (1, "q")]);
    let mut out = Vec::new();
    let answers = Answers {
        seed: Some(13),
        time: Some(12),
    };
    let total = boggleish::play(&mut keys, &mut out, &Rules::preset(Preset::Ece209), answers)
        .expect("writes to a Vec succeed");
    let expected = "E  S  Qu G  \nI  T  N  A  \nI  E  D  N  \nL  R  T  U  \n\
        You have 12 seconds: write down every word you find!\n\
        10 seconds left\n5 seconds left\n4 seconds left\n3 seconds left\n2 seconds left\n1 second left\n\
        Time's up! Enter the words you found.\n\
        Enter a word (q to quit): TIE: 1 point\n\
        Enter a word (q to quit): QUANT: 2 points\n\
        Enter a word (q to quit): Total score: 3 points\n";
    assert_text(&String::from_utf8_lossy(&out), expected);
    assert_eq!(total, 3);
    assert_eq!(clock.elapsed(), Duration::from_secs(12 + 30 + 1));
}
