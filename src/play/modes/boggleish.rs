//! Spec 001's "Boggle-ish" (`--rules ece209`): ask a seed and a time limit,
//! shake the tray with the spec's LFSR, print it, wait out the timer while
//! the players write words on paper, then score each word they enter until
//! `q`. There is no dictionary: any string the board spells scores.
//!
//! The tray is shaken exactly as spec 001 says, so a seed gives the same tray
//! as any other implementation using the same dice order: the dice start in
//! positions 0 to 15 in the order of `ECE209_DICE`, are permuted with
//! Fisher–Yates from the last index down to 1, and then each position, in
//! order, rolls its die with `get_random(6)` indexing the faces as written.
//!
//! Spec 001 defines only that 4x4 tray. Its draws are one step of a shift
//! register each, so each shares 15 of its 16 bits with the last: harmless
//! for sixteen dice in a shuffled order, but drawn cell after cell on a
//! larger board it made neighbours alike (`D A A A A`). Every other shape
//! draws from a scrambled seed, sixteen steps a draw
//! (`Lfsr::get_fresh_random`), so neighbouring cells are independent.

use std::io::Write;
use std::time::Duration;

use crate::play::modes::lfsr::{Lfsr, permute_by};
use crate::play::player::keyboard::{Keyboard, Typed, ask};
use boggle_game::dice::{DiceSet, LETTER_FREQUENCIES};
use boggle_game::die::Die;
use boggle_game::error::Error;
use boggle_game::face::Face;
use boggle_game::game::Game;
use boggle_game::game_board::{BoardError, GameBoard};
use boggle_game::rules::Rules;
use boggle_game::text::plural;

/// The classic (1976) dice in spec 001's order. The spec fixes die 0
/// (AACIOT), 1 (AHMORS), 2 (EGKLUY), 4 (ACDEMP) and 10 (the Q die); the others
/// follow the order these dice are usually listed in with those five in place.
pub(crate) const ECE209_DICE: [&str; 16] = [
    "AACIOT", "AHMORS", "EGKLUY", "ABILTY", "ACDEMP", "EGINTV", "GILRUW", "ELPSTU", "DENOSW",
    "ACELRS", "ABJMOQ", "EEFHIY", "EHINPS", "DKNOTU", "ADENVZ", "BFIORX",
];

/// The largest seed: the register holds 16 bits.
pub(crate) const MAX_SEED: u64 = 0xFFFF;
/// The longest timer the game asks for: a day, as `--time` allows.
pub(crate) const MAX_TIME: u64 = boggle_game::rules::MAX_SECONDS;

/// The seed prompt.
pub(crate) const SEED_PROMPT: &str = "Enter a seed number (0 to 65535): ";
/// The time limit prompt.
pub(crate) const TIME_PROMPT: &str = "Enter a time limit in seconds (0 to skip the timer): ";
/// The prompt for each word.
pub(crate) const WORD_PROMPT: &str = "Enter a word (q to quit): ";

/// Answers given up front (by `--seed` and `--time`) instead of at the prompts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Answers {
    /// The seed, if already chosen.
    pub(crate) seed: Option<u16>,
    /// The time limit in seconds, if already chosen.
    pub(crate) time: Option<u64>,
}

/// Shakes a tray with `lfsr`: spec 001's `shakeTray` on its 4x4 board of 16
/// dice; other shapes permute and roll their own dice set the same way, or
/// draw each cell by letter frequency, with independent draws (see the
/// module docs).
pub(crate) fn shake(rules: &Rules, lfsr: &mut Lfsr) -> Result<GameBoard, BoardError> {
    let cells = rules.cells();
    let dice: Vec<&str> = match rules.dice {
        DiceSet::Classic => ECE209_DICE.to_vec(),
        set => set.faces().map(<[&str]>::to_vec).unwrap_or_default(),
    };
    let faces: Vec<Face> = if cells == ECE209_DICE.len() && dice.len() == cells {
        roll_tray(&dice, &mut |limit| lfsr.get_random(limit))
    } else {
        // Writing a seed into the register puts it at a point of the register's
        // one cycle, and seed 2 steps to seed 1: their boards would be the same
        // shifted by a draw. Scrambling the seed first puts neighbouring seeds
        // far apart on the cycle.
        let mut scrambled = Lfsr::seeded(scramble(lfsr.state()));
        let mut draw = |limit| scrambled.get_fresh_random(limit);
        if dice.len() == cells {
            roll_tray(&dice, &mut draw)
        } else {
            (0..cells).map(|_| frequency_face(&mut draw)).collect()
        }
    };
    let faces = faces.into_iter().map(|face| face.with_q(rules.q)).collect();
    GameBoard::from_faces(rules.rows, rules.cols, faces)
}

/// The dice shuffled into the tray's cells, then each rolled in cell order,
/// with `draw(n)` giving a number in `0..n` (spec 001's `shakeTray`).
fn roll_tray(dice: &[&str], draw: &mut dyn FnMut(u32) -> u32) -> Vec<Face> {
    let mut tray_dice: Vec<usize> = (0..dice.len()).collect();
    permute_by(&mut tray_dice, &mut *draw);
    tray_dice
        .iter()
        .map(|&die| roll(&Die::new(dice[die]), draw))
        .collect()
}

/// One face of `die`, chosen with `draw(number of faces)`.
fn roll(die: &Die, draw: &mut dyn FnMut(u32) -> u32) -> Face {
    let faces = die.faces();
    let limit = u32::try_from(faces.len()).unwrap_or(u32::MAX);
    faces
        .get(draw(limit) as usize)
        .copied()
        .unwrap_or(Face::BLANK)
}

/// A 16-bit seed mixed into another, as a bijection (an odd multiplier and
/// xor-shifts), so nearby seeds land far apart.
fn scramble(seed: u16) -> u16 {
    let mut x = seed.wrapping_mul(0x9E37);
    x ^= x >> 7;
    x = x.wrapping_mul(0x2C1B);
    x ^ (x >> 9)
}

/// A letter drawn by English frequency, in steps of 1/100,000, with one draw.
fn frequency_face(draw: &mut dyn FnMut(u32) -> u32) -> Face {
    // Whole-number weights keep the draw exact and the same on every platform.
    let weights = LETTER_FREQUENCIES.map(|f| (f * 100_000.0).round() as u32);
    let total: u32 = weights.iter().sum();
    // The register holds 16 bits, fewer than the 100,000 steps: taken modulo
    // the total it would never reach past O. Scaled instead, its 65,536 values
    // cover the whole range, each letter in proportion.
    let raw = draw(1 << 16);
    let mut target = ((u64::from(raw) * u64::from(total)) >> 16) as u32;
    for (letter, weight) in (b'A'..=b'Z').zip(weights) {
        if target < weight {
            return Face::letter(letter).unwrap_or(Face::BLANK);
        }
        target -= weight;
    }
    Face::BLANK
}

/// The tray as spec 001 prints it: each letter followed by two spaces (`Qu`
/// by one), a row per line.
pub(crate) fn tray_text(board: &GameBoard) -> String {
    let mut text = String::new();
    for row in board.faces().chunks(board.cols()) {
        for face in row {
            let shown = face.to_string();
            text.push_str(&shown);
            text.push_str(if shown.len() > 1 { " " } else { "  " });
        }
        text.push('\n');
    }
    text
}

/// Plays one game and returns the total score. The end of input at any
/// prompt ends the game (with the total, once words are being scored).
pub(crate) fn play<K, W>(
    keys: &mut K,
    out: &mut W,
    rules: &Rules,
    answers: Answers,
) -> Result<u32, Error>
where
    K: Keyboard + ?Sized,
    W: Write,
{
    let seed = match answers.seed {
        Some(seed) => Some(seed),
        None => ask_seed(keys, out)?,
    };
    let Some(seed) = seed else {
        return Ok(0);
    };
    let time = match answers.time {
        Some(time) => Some(time),
        None => ask_number(keys, out, TIME_PROMPT, MAX_TIME)?,
    };
    let Some(time) = time else {
        return Ok(0);
    };
    let board = shake(rules, &mut Lfsr::seeded(seed))?;
    out.write_all(tray_text(&board).as_bytes())
        .map_err(Error::Output)?;
    // Words are judged, never recorded: spec 001 scores a repeat again.
    let game = Game::spelling_only(board, rules.clone());
    run_timer(keys, out, time)?;
    let mut total: u32 = 0;
    loop {
        out.write_all(WORD_PROMPT.as_bytes())
            .map_err(Error::Output)?;
        out.flush().map_err(Error::Output)?;
        let Typed::Text(word) = keys.token().map_err(Error::Input)? else {
            break;
        };
        if word == b"q" || word == b"Q" {
            break;
        }
        let word = String::from_utf8_lossy(&word).to_ascii_uppercase();
        let points = game.judge(&word).points();
        total = total.saturating_add(points);
        writeln!(
            out,
            "{word}: {points} {}",
            plural(points, "point", "points")
        )
        .map_err(Error::Output)?;
    }
    writeln!(
        out,
        "Total score: {total} {}",
        plural(total, "point", "points")
    )
    .map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    Ok(total)
}

/// Asks for the seed; `None` at the end of input.
fn ask_seed<K: Keyboard + ?Sized, W: Write>(
    keys: &mut K,
    out: &mut W,
) -> Result<Option<u16>, Error> {
    let seed = ask_number(keys, out, SEED_PROMPT, MAX_SEED)?;
    Ok(seed.and_then(|seed| u16::try_from(seed).ok()))
}

/// Asks `prompt` until the answer is a whole number up to `max`; `None` at the end of input.
fn ask_number<K: Keyboard + ?Sized, W: Write>(
    keys: &mut K,
    out: &mut W,
    prompt: &str,
    max: u64,
) -> Result<Option<u64>, Error> {
    ask(keys, out, prompt, |line| {
        match String::from_utf8_lossy(line).trim().parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(format!("Please enter a whole number from 0 to {max}.")),
        }
    })
}

/// Waits `seconds` while the players search, with a cue every ten seconds and for each of the last five.
fn run_timer<K: Keyboard + ?Sized, W: Write>(
    keys: &mut K,
    out: &mut W,
    seconds: u64,
) -> Result<(), Error> {
    if seconds == 0 {
        return Ok(());
    }
    writeln!(
        out,
        "You have {seconds} {}: write down every word you find!",
        plural(seconds, "second", "seconds")
    )
    .map_err(Error::Output)?;
    for left in (1..=seconds).rev() {
        if left < seconds && (left % 10 == 0 || left <= 5) {
            writeln!(out, "{left} {} left", plural(left, "second", "seconds"))
                .map_err(Error::Output)?;
        }
        out.flush().map_err(Error::Output)?;
        keys.wait(Duration::from_secs(1));
    }
    writeln!(out, "Time's up! Enter the words you found.").map_err(Error::Output)?;
    Ok(())
}

#[cfg(test)]
#[expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]
mod tests {
    use super::*;
    use crate::play::player::keyboard::Plain;
    use boggle_game::face::QReads;
    use boggle_game::rules::Preset;

    /// Spec 001's `scoreWord`: 0 if `word` is too short or too long for the rules
    /// or is not on the board, else the points for its length; judged by
    /// [`Game::judge`], as every mode's words are. A repeat scores again (spec
    /// 001 does not detect one).
    fn score_word(board: &GameBoard, rules: &Rules, word: &str) -> u32 {
        Game::spelling_only(board.clone(), rules.clone())
            .judge(word)
            .points()
    }

    fn tray(seed: u16, size: usize) -> GameBoard {
        let rules = Rules::sized(Preset::Ece209, size, size);
        shake(&rules, &mut Lfsr::seeded(seed)).expect("the tray fits the board")
    }

    #[test]
    fn frequency_trays_show_every_letter_in_proportion() {
        let mut counts = [0u32; 26];
        for seed in 0..2_000 {
            for face in tray(seed, 5).faces() {
                let letter = face.as_str().as_bytes()[0];
                counts[usize::from(letter - b'A')] += 1;
            }
        }
        let total: u32 = counts.iter().sum();
        for (i, &count) in counts.iter().enumerate() {
            let expected = LETTER_FREQUENCIES[i] * f64::from(total);
            // Every letter shows up, P to Z included, near its English share.
            assert!(count > 0, "{} never drawn", char::from(b'A' + i as u8));
            assert!(
                (f64::from(count) - expected).abs() < 0.2 * expected + 25.0,
                "{}: {count} drawn, {expected:.0} expected",
                char::from(b'A' + i as u8)
            );
        }
    }

    #[test]
    fn neighbouring_seeds_give_unrelated_trays() {
        let cells = |seed| -> Vec<String> {
            tray(seed, 5)
                .faces()
                .iter()
                .map(|f| f.to_string())
                .collect()
        };
        for (a, b) in [(1, 2), (2, 5), (1, 5)] {
            let (a, b) = (cells(a), cells(b));
            assert_ne!(a[1..], b[..24], "shifted by a cell");
            assert_ne!(b[1..], a[..24], "shifted by a cell");
        }
        assert_eq!(cells(7), cells(7), "a seed still repeats");
    }

    #[test]
    fn the_time_prompt_gives_a_human_range() {
        let mut keys = Plain::new(&b"13\n99999999\n0\nq\n"[..]);
        let mut out = Vec::new();
        let rules = Rules::preset(Preset::Ece209);
        play(&mut keys, &mut out, &rules, Answers::default()).expect("writes to a Vec");
        let out = String::from_utf8_lossy(&out);
        assert!(
            out.contains("Please enter a whole number from 0 to 86400."),
            "{out}"
        );
    }

    #[test]
    fn ece209_scores_any_string_on_the_board() {
        let rules = Rules::preset(Preset::Ece209);
        let board = shake(&rules, &mut Lfsr::seeded(13)).expect("4x4");
        assert_eq!(
            tray_text(&board),
            "E  S  Qu G  \nI  T  N  A  \nI  E  D  N  \nL  R  T  U  \n"
        );
        let cases = [
            ("TIE", 1),
            ("TIT", 0), // the only T next to an I would be used twice
            ("SQUAD", 2),
            ("QAD", 0),
            ("TI", 0),
            ("UTRLIEIT", 11),
        ];
        for (word, expected) in cases {
            assert_eq!(score_word(&board, &rules, word), expected, "{word}");
        }
        // 17 letters fit a 4x4 board with a Qu, but spec 001 stops at 16.
        let snake =
            GameBoard::from_letters("QABCGFEDHIJKONML", 4, 4, QReads::Qu).expect("16 cells");
        assert_eq!(score_word(&snake, &rules, "QUABCDEFGHIJKLMN"), 11);
        assert_eq!(score_word(&snake, &rules, "QUABCDEFGHIJKLMNO"), 0);
    }

    /// Boards other than spec 001's 4x4 tray draw each cell independently: over
    /// many seeds, a letter is followed by itself (to the right and below) about
    /// as often as the letters' shares say, not far more (when each draw shared
    /// 15 of its 16 bits with the last, A followed A half the time and E never
    /// followed E).
    #[test]
    fn ece209_boards_of_other_sizes_have_independent_neighbours() {
        for (rows, cols) in [(5, 5), (3, 6)] {
            let rules = Rules::sized(Preset::Ece209, rows, cols);
            let mut counts = [0u64; 26];
            let (mut pairs, mut same) = (0u64, [0u64; 26]);
            let mut runs_of_three = 0u32;
            for seed in 0..=2_000u16 {
                let board = shake(&rules, &mut Lfsr::seeded(seed)).expect("a board");
                let letter = |cell: usize| usize::from(board.faces()[cell].as_bytes()[0] - b'A');
                for cell in 0..rows * cols {
                    counts[letter(cell)] += 1;
                    let (row, col) = (cell / cols, cell % cols);
                    for next in [
                        (col + 1 < cols).then(|| cell + 1),
                        (row + 1 < rows).then(|| cell + cols),
                    ]
                    .into_iter()
                    .flatten()
                    {
                        pairs += 1;
                        if letter(next) == letter(cell) {
                            same[letter(cell)] += 1;
                        }
                    }
                    if col + 2 < cols
                        && letter(cell) == letter(cell + 1)
                        && letter(cell) == letter(cell + 2)
                    {
                        runs_of_three += 1;
                    }
                }
            }
            let total: u64 = counts.iter().sum();
            let share = |l: usize| counts[l] as f64 / total as f64;
            for (name, l) in [("A", 0), ("E", 4), ("T", 19)] {
                let expected = share(l) * share(l) * pairs as f64;
                let got = same[l] as f64;
                assert!(
                    got > 0.6 * expected && got < 1.4 * expected,
                    "{rows}x{cols}: {name} next to {name} {got} times, {expected:.0} expected"
                );
            }
            let all_same: u64 = same.iter().sum();
            let expected: f64 = (0..26).map(|l| share(l) * share(l)).sum::<f64>() * pairs as f64;
            assert!(
                (all_same as f64) < 1.25 * expected,
                "{rows}x{cols}: {all_same} same-letter neighbours, {expected:.0} expected"
            );
            let triples = (rows * cols.saturating_sub(2) * 2_001) as f64;
            let expected_runs: f64 = (0..26).map(|l| share(l).powi(3)).sum::<f64>() * triples;
            assert!(
                f64::from(runs_of_three) < 1.5 * expected_runs,
                "{rows}x{cols}: {runs_of_three} runs of three letters alike, {expected_runs:.0} expected"
            );
        }
    }
}
