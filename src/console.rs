//! Spec 004's console game, byte for byte: the board prompt, the guess loop
//! and the summary. Runs over any reader and writers so tests and fuzzers can
//! drive it; the end of input ends the game like `q`, and the summary is
//! always written.

use std::io::{self, BufRead, Write};

use crate::error::Error;
use crate::game::Game;
use crate::game_board::GameBoard;
use crate::input::{Input, MAX_LINE, MAX_TOKEN};

/// The first prompt.
pub const BOARD_PROMPT: &str =
    "Enter a 16-character long string to run manual tests, or leave empty to get a random board: ";
/// The prompt before the first guess.
pub const FIRST_PROMPT: &str = "Enter a word (q to quit): ";
/// The prompt before every later guess.
pub const PROMPT: &str = "Enter a word: ";
/// Written after a guess that scores nothing.
pub const NOT_WORTH: &str = "\tNot worth any points\n";

/// Plays one game. `make_game` gets the board the player typed (`None` for a
/// random one) and returns the game to play; it is called only after the
/// first answer, so a dictionary can load while the player types.
/// Diagnostics (a 16-character line that is not all letters) go to `err`.
pub fn play<R, W, E, F>(input: R, out: &mut W, err: &mut E, make_game: F) -> Result<Game, Error>
where
    R: BufRead,
    W: Write,
    E: Write,
    F: FnOnce(Option<GameBoard>) -> Result<Game, Error>,
{
    let mut input = Input::new(input);
    out.write_all(BOARD_PROMPT.as_bytes())?;
    out.flush()?;
    let (line, failed) = match input.read_line(MAX_LINE) {
        Ok(line) => (line.unwrap_or_default(), None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let board = typed_board(&line, err);
    let mut game = make_game(board)?;
    out.write_all(game.show_board().as_bytes())?;
    let read_result = match failed {
        None => guess_loop(&mut input, out, &mut game),
        // Input that fails at once is played like input that ends at once, so
        // the summary is still written; the failure is reported after it.
        Some(e) => guess_loop(&mut Input::new(io::empty()), out, &mut game).and(Err(read_error(e))),
    };
    write_summary(out, &game)?;
    out.flush()?;
    read_result?;
    Ok(game)
}

/// The board in the first answer, if it is exactly 16 ASCII letters once trimmed.
fn typed_board<E: Write>(line: &[u8], err: &mut E) -> Option<GameBoard> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    if text.chars().count() != 16 {
        return None;
    }
    match GameBoard::new(text) {
        Ok(board) => Some(board),
        Err(e) => {
            // Diagnostics must never stop the game, so a failed write is ignored.
            let _ = writeln!(err, "boggle: {e}; using a random board");
            None
        }
    }
}

/// Prompts for guesses until `q`, the end of input, or every point found.
/// A read error ends the loop like the end of input, and is returned after the summary.
fn guess_loop<R: BufRead, W: Write>(
    input: &mut Input<R>,
    out: &mut W,
    game: &mut Game,
) -> Result<(), Error> {
    let mut prompt = FIRST_PROMPT;
    loop {
        out.write_all(prompt.as_bytes())?;
        out.flush()?;
        prompt = PROMPT;
        let Some(token) = input.next_token(MAX_TOKEN).map_err(read_error)? else {
            return Ok(());
        };
        if token == b"q" || token == b"Q" {
            return Ok(());
        }
        if !game.guess(&String::from_utf8_lossy(&token)) {
            out.write_all(NOT_WORTH.as_bytes())?;
        } else if game.is_complete() {
            let total = game.get_total_points_possible();
            writeln!(
                out,
                "Congratulations! You achieved {total} out of {total} possible points!"
            )?;
            return Ok(());
        }
    }
}

/// A failure to read the player's input, saying so (its kind is kept).
fn read_error(e: io::Error) -> Error {
    Error::Io(io::Error::new(
        e.kind(),
        format!("cannot read the input: {e}"),
    ))
}

/// The end-of-game summary: score, incorrect guesses, points possible, every word.
pub fn write_summary<W: Write>(out: &mut W, game: &Game) -> std::io::Result<()> {
    let score = game.get_score();
    let wrong = game.get_incorrect_guesses();
    writeln!(
        out,
        "You got {score} {} and had {wrong} incorrect {}.",
        plural(score, "point", "points"),
        plural(wrong, "guess", "guesses"),
    )?;
    writeln!(
        out,
        "There were {} points possible",
        game.get_total_points_possible()
    )?;
    writeln!(out, "{}", "=".repeat(60))?;
    out.write_all(game.get_all_words().as_bytes())
}

fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}
