//! Any bytes into the binary's readers: the console loop, the player's
//! input, board files, the records file, Boggle-ish and versus each take
//! whatever a player, a pipe or a file hands them without a panic, and
//! keep the promises they make of any input.
//!
//! These were cargo-fuzz targets (`fuzz/`) until the modules moved into
//! the binary, which cargo-fuzz cannot link. Each target's body is a
//! `check_*` function here, run by a property over arbitrary bytes, the
//! tests' hostile pieces, the old seeds mutated, and the seeds' lines
//! recombined; and once over each seed as it was. Unlike libFuzzer nothing
//! steers the inputs toward new branches, so the strategies build
//! well-formed pieces themselves. `PROPTEST_CASES=N` runs N cases of each.

#![expect(
    clippy::disallowed_types,
    reason = "the tests build rules from a preset; nothing here branches on one"
)]

use std::io::{self, BufRead, BufReader, Read};
use std::sync::{Arc, OnceLock};

use boggle_game::dictionary::Level;
use boggle_game::{Dictionary, Error, Game, GameBoard, Preset, QReads, Rules, WordFind, random};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::play::board_file::{parse_board_file, parse_board_line};
use crate::play::modes::boggleish::{self, Answers};
use crate::play::modes::console;
use crate::play::modes::versus::{self, Highlight, Settings};
use crate::play::player::input::Input;
use crate::play::player::keyboard::{FakeClock, Plain, Scripted, Timed};
use crate::play::records::Records;

// The integration tests' properties use the same pieces; a unit test
// cannot link their crate, so the file is shared by path.
#[path = "../../tests/it/common/strategies.rs"]
mod strategies;
use strategies::{cases, hostile_bytes};

/// What a fuzz target's input might be: any bytes, hostile pieces, one of
/// `seeds` with bytes spliced in, or a seed's first line followed by the
/// seeds' lines in any order and number, bytes spliced in too.
fn fuzz_input(seeds: &'static [&'static [u8]]) -> impl Strategy<Value = Vec<u8>> {
    let lines: Vec<&'static [u8]> = seeds
        .iter()
        .flat_map(|seed| seed.split_inclusive(|&b| b == b'\n'))
        .collect();
    let firsts: Vec<&'static [u8]> = seeds
        .iter()
        .filter_map(|seed| seed.split_inclusive(|&b| b == b'\n').next())
        .collect();
    let splices = || {
        prop::collection::vec(
            (any::<Index>(), prop::collection::vec(any::<u8>(), 0..4)),
            0..4,
        )
    };
    let spliced = (prop::sample::select(seeds.to_vec()), splices())
        .prop_map(|(seed, splices)| splice(seed.to_vec(), splices));
    let recombined = (
        prop::sample::select(firsts),
        prop::collection::vec(prop::sample::select(lines), 0..40),
        splices(),
    )
        .prop_map(|(first, lines, splices)| splice([first, &lines.concat()].concat(), splices));
    prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..4096),
        2 => hostile_bytes(),
        3 => spliced,
        3 => recombined,
    ]
}

/// `bytes` with each piece inserted at its place.
fn splice(mut bytes: Vec<u8>, splices: Vec<(Index, Vec<u8>)>) -> Vec<u8> {
    for (at, piece) in splices {
        let at = at.index(bytes.len() + 1);
        bytes.splice(at..at, piece);
    }
    bytes
}

/// A reader that hands its bytes out a few at a time and is interrupted now and
/// then, as a terminal or a pipe can be; with `fail`, it ends in an error.
struct Trickle {
    data: Vec<u8>,
    at: usize,
    step: usize,
    calls: usize,
    fail: bool,
}

impl Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(7) {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        if self.at == self.data.len() {
            return if self.fail {
                Err(io::Error::other("the terminal went away"))
            } else {
                Ok(0)
            };
        }
        let n = self.step.min(buf.len()).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn console_finder() -> WordFind {
    let words = [
        "EAT", "BAT", "TAB", "TEA", "BEAT", "ABATE", "QUA", "QUAT", "LIT", "BAG",
    ];
    WordFind::with_dictionary(Arc::new(Dictionary::from_words(words)))
}

/// Plays a console game on `input`; returns the result, what was written, and the game.
fn play_console<R: BufRead>(input: R, find: &WordFind) -> (Result<Game, Error>, Vec<u8>) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let result = console::play(input, &mut out, &mut err, |board| {
        Ok(match board {
            Some(board) => Game::from_board(board, find),
            None => Game::random(find, &mut random::seeded(7)),
        })
    });
    (result, out)
}

fn summary(game: &Game) -> String {
    format!(
        "There were {} points possible\n{}\n{}",
        game.get_total_points_possible(),
        "=".repeat(60),
        game.get_all_words()
    )
}

proptest! {
    #![proptest_config(cases(600))]

    #[test]
    fn the_console_takes_any_bytes_and_always_ends_with_the_summary(bytes in hostile_bytes()) {
        let find = console_finder();
        let (result, out) = play_console(&bytes[..], &find);
        let game = result.map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(out.ends_with(summary(&game).as_bytes()));
        let got = format!(
            "You got {} point",
            game.get_score()
        );
        prop_assert!(String::from_utf8_lossy(&out).contains(&got));
    }

    #[test]
    fn the_console_reads_the_same_however_the_bytes_arrive(
        bytes in hostile_bytes(),
        step in 1usize..9,
        capacity in 1usize..17,
        fail in any::<bool>(),
    ) {
        let find = console_finder();
        let (whole, whole_out) = play_console(&bytes[..], &find);
        let trickle = Trickle { data: bytes.clone(), at: 0, step, calls: 0, fail };
        let (pieces, pieces_out) = play_console(BufReader::with_capacity(capacity, trickle), &find);
        // A read error ends the game like the end of input, after the summary.
        prop_assert_eq!(&whole_out, &pieces_out);
        prop_assert!(whole.is_ok());
        // (It is returned only if the game read that far: `q` may end it first.)
        prop_assert!(fail || pieces.is_ok());
    }

    #[test]
    fn tokens_and_lines_never_exceed_their_caps(bytes in hostile_bytes(), max in 1usize..64) {
        let mut input = Input::new(&bytes[..]);
        while let Ok(Some(token)) = input.next_token(max) {
            prop_assert!(!token.is_empty() && token.len() <= max);
            prop_assert!(!token.iter().any(|b| b.is_ascii_whitespace() || *b == 0x0b));
        }
        let mut input = Input::new(&bytes[..]);
        let mut lines = 0;
        while let Ok(Some(line)) = input.read_line(max) {
            prop_assert!(line.len() <= max && !line.contains(&b'\n'));
            lines += 1;
        }
        prop_assert!(lines <= bytes.iter().filter(|&&b| b == b'\n').count() + 1);
    }
}

// ---------------------------------------------------------------------------
// The former fuzz targets, each with the seeds it started from.

/// A former fuzz target's body: `Err` when the input breaks a promise.
type Check = fn(&[u8]) -> Result<(), TestCaseError>;

/// Spec 002's board file, `\x01` first: Qu, a 1x1 board line.
const BOARD_FILE_SEEDS: &[&[u8]] = &[b"\x014 4\nS N R T\nO I E L\nE Qu T T\nR S A T\n"];

/// A board file's text, after a first byte that picks Q or Qu and a board
/// line's size: any text either gives a board of the size it claims or an
/// error naming a line that exists; a board read back from its own cells is
/// the same board.
fn check_board_file(data: &[u8]) -> Result<(), TestCaseError> {
    let Some((&knobs, rest)) = data.split_first() else {
        return Ok(());
    };
    let q = if knobs & 1 != 0 {
        QReads::Qu
    } else {
        QReads::Q
    };
    let text = String::from_utf8_lossy(rest);
    match parse_board_file(&text, q) {
        Ok(board) => {
            let cells: Vec<String> = board.faces().iter().map(ToString::to_string).collect();
            let again = GameBoard::from_cells(
                cells.iter().map(String::as_str),
                board.rows(),
                board.cols(),
                q,
            );
            prop_assert_eq!(again, Ok(board));
        }
        Err(e) => {
            let lines = text.lines().count().max(1);
            prop_assert!(
                e.line >= 1 && e.line <= lines,
                "line {} of {}",
                e.line,
                lines
            );
        }
    }
    let (rows, cols) = (usize::from(knobs >> 1 & 7) + 1, usize::from(knobs >> 4) + 1);
    if let Ok(board) = parse_board_line(&text, rows, cols, q) {
        prop_assert_eq!((board.rows(), board.cols()), (rows, cols));
    }
    Ok(())
}

/// Transcripts of spec 004's game; the first byte is taken for the knobs.
const CONSOLE_SEEDS: &[&[u8]] = &[
    b"QUEATSBRONIXDELPA\n\xff\xfe\x00eat\x0bTEA\r\nQ\n",
    b"\neat bat tea tab beat\n",
    b"NIEHGTIBGUALRWGC\nLIT\nBAG\nq\n",
];

/// A reader that hands out its bytes a few at a time, then ends or fails.
struct Pieces<'a> {
    data: &'a [u8],
    step: usize,
    fail: bool,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return if self.fail {
                Err(io::Error::other("gone"))
            } else {
                Ok(0)
            };
        }
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Spec 004's console loop on any standard input (after a knob byte): the
/// game ends, the summary is the last thing written, the score is at most
/// what the board holds, and the game does not depend on how the bytes
/// arrive (in small reads, or cut off by a read error, which plays like the
/// end of input).
fn check_console(data: &[u8]) -> Result<(), TestCaseError> {
    let Some((&knobs, input)) = data.split_first() else {
        return Ok(());
    };
    let find = console_finder();
    let seed = input.len() as u64;
    let play = |input: &mut dyn BufRead| {
        let mut out = Vec::new();
        let played = console::play(input, &mut out, &mut Vec::new(), |board| {
            Ok(match board {
                Some(board) => Game::from_board(board, &find),
                None => Game::random(&find, &mut random::seeded(seed)),
            })
        });
        (played, out)
    };
    let (whole, out) = play(&mut &input[..]);
    let game = whole.map_err(|e| TestCaseError::fail(format!("a byte slice cannot fail: {e}")))?;
    prop_assert!(
        out.ends_with(summary(&game).as_bytes()),
        "the summary ends the output"
    );
    prop_assert!(game.get_score() <= game.get_total_points_possible());
    let pieces = Pieces {
        data: input,
        step: usize::from(knobs >> 4) + 1,
        fail: knobs & 1 != 0,
    };
    let capacity = usize::from(knobs >> 1 & 7) + 1;
    let (played, pieces_out) = play(&mut BufReader::with_capacity(capacity, pieces));
    prop_assert_eq!(
        out,
        pieces_out,
        "the same bytes in pieces play the same game"
    );
    prop_assert!(knobs & 1 != 0 || played.is_ok());
    Ok(())
}

/// Spec 001's seed, timer and words.
const ECE209_SEEDS: &[&[u8]] = &[b"13\n0\nTIE quant SQUAD QANT NO\nq\n"];

/// Spec 001's Boggle-ish on any lines (its seed and timer questions, then
/// the words), on a fake clock so the timer never sleeps: it ends, and its
/// total is the sum of the points it printed for each word.
fn check_ece209(data: &[u8]) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(data);
    let clock = FakeClock::default();
    let lines: Vec<(u64, &str)> = text.lines().map(|line| (0, line)).collect();
    let mut keys = Timed::new(Scripted::new(clock.clone(), lines), clock);
    let mut out = Vec::new();
    let rules = Rules::preset(Preset::Ece209);
    let total = boggleish::play(&mut keys, &mut out, &rules, Answers::default())
        .map_err(|e| TestCaseError::fail(format!("a Vec takes every write: {e}")))?;
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
        prop_assert_eq!(printed, total, "{}", out);
    }
    Ok(())
}

/// A records file of two games.
const RECORDS_SEEDS: &[&[u8]] =
    &[b"boggle records 1\nproject4\t4x4\twords.txt@0123456789abcdef\t3:00\t2\t17\n"];

/// The full screen's records file: any text is either refused or read into
/// records that write back out as text that reads back the same.
fn check_records(data: &[u8]) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(data);
    if let Some(records) = Records::parse(&text) {
        let written = records.to_text();
        prop_assert_eq!(Records::parse(&written), Some(records), "{:?}", written);
    }
    Ok(())
}

/// A records file's header and lines of six tab-separated fields, each
/// field a plausible value, an odd one or any text.
fn records_text() -> impl Strategy<Value = Vec<u8>> {
    let field = prop_oneof![
        3 => prop::sample::select(vec![
            "project4", "4x4", "words.txt@0123456789abcdef", "3:00", "0", "17",
            "18446744073709551615", "18446744073709551616", "4294967296", "-1", "", " ", "\r",
        ])
        .prop_map(String::from),
        1 => any::<String>(),
        1 => any::<u64>().prop_map(|n| n.to_string()),
    ];
    let line = prop::collection::vec(field, 5..=7).prop_map(|fields| fields.join("\t"));
    prop::collection::vec(line, 0..8).prop_map(|lines| {
        let mut text = String::from("boggle records 1\n");
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text.into_bytes()
    })
}

/// A round on a typed board, then one more on the rolled board.
const VERSUS_SEEDS: &[&[u8]] = &[b"y\nqitearsnstradeni\nquit\nten\n\ny\nn\n\nn\n"];

/// `boggle versus` on any input: the match ends, every round counted has a
/// result line, and the record never claims more wins than rounds.
fn check_versus(data: &[u8]) -> Result<(), TestCaseError> {
    static FIND: OnceLock<WordFind> = OnceLock::new();
    let finder = FIND.get_or_init(|| {
        let words = [
            "QUIT", "QUITE", "QUITS", "STIR", "NEST", "TENS", "ARTS", "TRAINED",
        ];
        WordFind::with_rules(
            Arc::new(Dictionary::from_words(words)),
            Rules::preset(Preset::Cs106b),
        )
    });
    let settings = Settings {
        finder,
        highlight: Highlight::LowerCase,
        time: None,
        level: Level::Perfect,
        terminal: false,
        intro: true,
        board: None,
        width: 80,
        height: None,
    };
    let mut out = Vec::new();
    let roll =
        || GameBoard::from_letters("QITEARSNSTRADENI", 4, 4, QReads::Qu).map_err(Error::Board);
    let record = versus::play(&mut Plain::new(data), &mut out, &settings, roll)
        .map_err(|e| TestCaseError::fail(format!("a byte slice reads: {e}")))?;
    prop_assert!(record.human_wins <= record.rounds);
    let out = String::from_utf8_lossy(&out);
    prop_assert_eq!(out.matches("My score: ").count() as u32, record.rounds);
    Ok(())
}

proptest! {
    #[test]
    fn any_board_file_is_a_board_or_names_a_line(data in fuzz_input(BOARD_FILE_SEEDS)) {
        check_board_file(&data)?;
    }

    #[test]
    fn any_console_input_plays_to_the_summary(data in fuzz_input(CONSOLE_SEEDS)) {
        check_console(&data)?;
    }

    #[test]
    fn any_ece209_input_totals_the_points_it_printed(data in fuzz_input(ECE209_SEEDS)) {
        check_ece209(&data)?;
    }

    #[test]
    fn any_records_text_is_refused_or_reads_back_the_same(
        data in prop_oneof![fuzz_input(RECORDS_SEEDS), records_text()],
    ) {
        check_records(&data)?;
    }

    #[test]
    fn any_versus_input_counts_each_round_once(data in fuzz_input(VERSUS_SEEDS)) {
        check_versus(&data)?;
    }
}

#[test]
fn the_fuzz_seeds_pass_as_they_are() {
    let checks: [(&[&[u8]], Check); 5] = [
        (BOARD_FILE_SEEDS, check_board_file),
        (CONSOLE_SEEDS, check_console),
        (ECE209_SEEDS, check_ece209),
        (RECORDS_SEEDS, check_records),
        (VERSUS_SEEDS, check_versus),
    ];
    for (seeds, check) in checks {
        for seed in seeds {
            if let Err(e) = check(seed) {
                panic!("{}: {e}", String::from_utf8_lossy(seed));
            }
        }
    }
}
